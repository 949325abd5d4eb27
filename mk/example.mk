# example.mk — the ExampleKEM package under examples/ in our own programs:
# its unit test (tests/unit/test_example_kem.c) and the tool that generates
# its committed KAT files (`make example-kats`).
#
# Each instance is compiled with the package's portability flags and its
# kem_* API renamed to <label with _>_kem_*, so all instances link into one
# program; scheme-internal symbols are already namespaced by the package.

EX_PKG    := examples/ExampleKEM
EX_REF    := $(EX_PKG)/Implementations/Reference_Implementation
EX_LABELS := ExampleKEM-128 ExampleKEM-256
EX_API    := kem_get_pk_len_bytes kem_get_sk_len_bytes kem_get_ss_len_bytes \
             kem_get_ct_len_bytes kem_keygen kem_enc kem_dec
EX_CFLAGS  = -std=c99 -Wpedantic -Wall -Wextra -Werror -O2 -g $(SANFLAGS) -Isrc/runtime

ex_tag   = $(subst -,_,$(1))
ex_label = $(firstword $(subst /, ,$(1)))
ex_defs  = -I$(EX_REF)/$(1) -I$(EX_REF)/$(1)/src \
           $(foreach f,$(EX_API),-D$(f)=$(call ex_tag,$(1))_$(f))
ex_srcs  = $(EX_REF)/$(1)/KEM_AlgorithmInstance.c $(wildcard $(EX_REF)/$(1)/src/*.c)
ex_objs  = $(patsubst $(EX_REF)/%.c,$(O)/examples/%.o,$(call ex_srcs,$(1))) \
           $(O)/examples-meta/$(1).o

EX_OBJS      := $(foreach l,$(EX_LABELS),$(call ex_objs,$(l)))
EX_TOOL_OBJS := $(O)/tests/tools/example_instances.o

$(O)/examples/%.o: $(EX_REF)/%.c
	@mkdir -p $(@D)
	$(CC) $(EX_CFLAGS) $(call ex_defs,$(call ex_label,$*)) -MMD -MP -c $< -o $@

$(O)/examples-meta/%.o: tests/tools/example_meta.c
	@mkdir -p $(@D)
	$(CC) $(EX_CFLAGS) -I$(EX_REF)/$* -DEX_TAG=$(call ex_tag,$*) -c $< -o $@

# Under ASan+UBSan the round trips take ten times longer and walk the same
# code: 100 seeds instead of 1000 there.
EX_TEST_DEFS = $(if $(filter 1,$(SAN)),-DROUND_TRIPS=100)

$(O)/tests/test_example_kem: tests/unit/test_example_kem.c $(EX_TOOL_OBJS) $(EX_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(EX_TEST_DEFS) -Itests/unit -Itests/tools -o $@ $< $(EX_TOOL_OBJS) $(EX_OBJS) $(O)/libngcc.a $(LIBS) -lcmocka

$(O)/tools/mkkat: tests/tools/mkkat.c $(EX_TOOL_OBJS) $(EX_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/tools -o $@ $< $(EX_TOOL_OBJS) $(EX_OBJS) $(O)/libngcc.a $(LIBS)

# Regenerate the committed KAT files (test_example_kem checks they match).
.PHONY: example-kats
example-kats: $(O)/tools/mkkat
	$(O)/tools/mkkat -o $(EX_PKG)/Test_Vectors
