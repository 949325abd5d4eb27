# example_schemes.mk — the ExampleSIG, ExampleKEX and ExampleHash packages
# under examples/ in our own programs: their unit test
# (tests/unit/test_example_schemes.c), the tool that generates their
# committed KAT files (`make example-kats`, `make example-kats-slow` for the
# two long hash files) and `make check-slow`.
#
# Each variant is one instance folder compiled with the package's
# portability flags, optional test switches (the hostile builds documented
# in tests/fixtures/schemes/README.md) and its API and scheme symbols
# renamed to <tag>_<symbol>, so all variants link into one program.

XS_REF    = examples/$(1)/Implementations/Reference_Implementation/$(2)
XS_CFLAGS = -std=c99 -Wpedantic -Wall -Wextra -Werror -O2 -g $(SANFLAGS) -Isrc/runtime

XS_SIG_SYMS  := sig_get_pk_len_bytes sig_get_sk_len_bytes sig_get_sn_len_bytes \
                sig_keygen sig_sign sig_verify exsig_keypair exsig_sign exsig_verify
XS_KEX_SYMS  := kex_get_passes_num kex_get_pk_len_bytes kex_get_sk_len_bytes \
                kex_get_sta_len_bytes kex_get_stb_len_bytes kex_get_ss_len_bytes \
                kex_get_total_msg_len_bytes kex_init_a kex_init_b \
                kex_generate_pass1_msg_a kex_generate_pass2_msg_b \
                kex_generate_pass3_msg_a kex_generate_pass4_msg_b \
                kex_derive_ss_a kex_derive_ss_b exkex_keypair exkex_start \
                exkex_respond exkex_finish_a exkex_tag exkex_tag_differs exkex_secret
XS_HASH_SYMS := CryptHash exhash_digest

XS_OBJS :=

# $(call xs_variant,TAG,PACKAGE,LABEL,KIND,SYMBOLS,TEST-SWITCHES)
define xs_variant
$(1)_DIR  := $(call XS_REF,$(2),$(3))
$(1)_SRCS := $$(wildcard $$($(1)_DIR)/$(4)_AlgorithmInstance.c $$($(1)_DIR)/src/*.c)
$(1)_OBJS := $$(patsubst $$($(1)_DIR)/%.c,$(O)/xs/$(1)/%.o,$$($(1)_SRCS)) $(O)/xs/$(1)/meta.o
$(1)_DEFS := -I$$($(1)_DIR) -I$$($(1)_DIR)/src $(6) $$(foreach f,$(5),-D$$(f)=$(1)_$$(f))

$(O)/xs/$(1)/%.o: $$($(1)_DIR)/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(XS_CFLAGS) $$($(1)_DEFS) -MMD -MP -c $$< -o $$@

$(O)/xs/$(1)/meta.o: tests/tools/scheme_meta.c
	@mkdir -p $$(@D)
	$$(CC) $$(XS_CFLAGS) $$($(1)_DEFS) -DXS_TAG=$(1) \
		-DXS_API_HEADER='"$(4)_AlgorithmInstance.h"' -c $$< -o $$@

XS_OBJS += $$($(1)_OBJS)
endef

$(eval $(call xs_variant,ExampleSIG_1,ExampleSIG,ExampleSIG-1,SIG,$(XS_SIG_SYMS)))
$(eval $(call xs_variant,ExampleSIG_2,ExampleSIG,ExampleSIG-2,SIG,$(XS_SIG_SYMS)))
$(eval $(call xs_variant,ExampleKEX_2P,ExampleKEX,ExampleKEX-2P,KEX,$(XS_KEX_SYMS)))
$(eval $(call xs_variant,ExampleKEX_3P,ExampleKEX,ExampleKEX-3P,KEX,$(XS_KEX_SYMS)))
$(eval $(call xs_variant,ExampleHash_256,ExampleHash,ExampleHash-256,CryptHash,$(XS_HASH_SYMS)))
$(eval $(call xs_variant,ExampleHash_512,ExampleHash,ExampleHash-512,CryptHash,$(XS_HASH_SYMS)))
# Hostile builds the unit test runs in-process (the crashing and slow ones
# are only compiled, to keep them building).
$(eval $(call xs_variant,HostileSIG_accept_all,ExampleSIG,ExampleSIG-1,SIG,$(XS_SIG_SYMS),-DEXSIG_HOSTILE_ACCEPT_ALL))
$(eval $(call xs_variant,HostileSIG_sign_fails,ExampleSIG,ExampleSIG-1,SIG,$(XS_SIG_SYMS),-DEXSIG_HOSTILE_SIGN_FAILS_ONE_IN=3))
$(eval $(call xs_variant,HostileSIG_long_sig,ExampleSIG,ExampleSIG-2,SIG,$(XS_SIG_SYMS),-DEXSIG_HOSTILE_LONG_SIGNATURE))
$(eval $(call xs_variant,HostileKEX_different,ExampleKEX,ExampleKEX-2P,KEX,$(XS_KEX_SYMS),-DEXKEX_HOSTILE_DIFFERENT_SECRETS))
$(eval $(call xs_variant,HostileKEX_never_2P,ExampleKEX,ExampleKEX-2P,KEX,$(XS_KEX_SYMS),-DEXKEX_HOSTILE_NEVER_FINISHES))
$(eval $(call xs_variant,HostileKEX_never_3P,ExampleKEX,ExampleKEX-3P,KEX,$(XS_KEX_SYMS),-DEXKEX_HOSTILE_NEVER_FINISHES))
$(eval $(call xs_variant,HostileKEX_crash,ExampleKEX,ExampleKEX-3P,KEX,$(XS_KEX_SYMS),-DEXKEX_HOSTILE_CRASH_IN_PASS2))
$(eval $(call xs_variant,HostileHash_partial,ExampleHash,ExampleHash-256,CryptHash,$(XS_HASH_SYMS),-DEXHASH_HOSTILE_DROP_PARTIAL_BYTE))
$(eval $(call xs_variant,HostileHash_crash,ExampleHash,ExampleHash-256,CryptHash,$(XS_HASH_SYMS),-DEXHASH_HOSTILE_CRASH_FROM_BYTES=67108864))
$(eval $(call xs_variant,HostileHash_slow,ExampleHash,ExampleHash-512,CryptHash,$(XS_HASH_SYMS),-DEXHASH_HOSTILE_SPINS=100000))

XS_TOOL_OBJS := $(O)/tests/tools/scheme_instances.o

$(O)/tests/tools/scheme_instances.o: tests/tools/scheme_instances.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/tools -MMD -MP -c $< -o $@

$(O)/tests/test_example_schemes: tests/unit/test_example_schemes.c $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(if $(filter 1,$(SAN)),-DROUND_TRIPS=60) -Itests/unit -Itests/tools -o $@ $< $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a $(LIBS) -lcmocka

$(O)/tools/mkkat_schemes: tests/tools/mkkat_schemes.c $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/tools -o $@ $< $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a $(LIBS)

# Regenerate the committed KAT files of ExampleSIG, ExampleKEX and
# ExampleHash (test_example_schemes checks them) with `make example-kats`;
# the hash's KAT_2_33 and KAT_Loop take a while: `make example-kats-slow`,
# and `make check-slow` regenerates and compares them.
.PHONY: example-kats-schemes example-kats-slow check-slow
example-kats: example-kats-schemes
example-kats-schemes: $(O)/tools/mkkat_schemes
	$(O)/tools/mkkat_schemes --fast -o examples
example-kats-slow: $(O)/tools/mkkat_schemes
	$(O)/tools/mkkat_schemes --slow -o examples
check-slow: $(O)/tools/mkkat_schemes
	$(O)/tools/mkkat_schemes --slow --check examples
