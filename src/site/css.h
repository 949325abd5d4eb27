/*
 * css.h — the site's one stylesheet (light and dark, no web fonts).
 */
#ifndef NGCC_SITE_CSS_H
#define NGCC_SITE_CSS_H

/* The stylesheet, and its `style.css?v=<8 hex>` reference. */
extern const char site_css[];
void site_css_version(char out[9]);

#endif
