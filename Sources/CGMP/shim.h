// The slice of GMP that ExactArithmetic uses, under names Swift can call.
//
// gmp.h names its API with macros (`#define mpq_add __gmpq_add`), and Swift imports
// no macro that expands to an identifier, so `mpq_add` is not visible from Swift.
// Other parts are function-like macros (`mpq_numref`, `mpz_sgn`, `mpz_cmp_ui`) that Swift
// cannot import at all. Each `lb_` function below is a `static inline` forwarder that
// Clang compiles into the Swift module, so the shims cost no call.
//
// Only what `Rational` needs is here; add to it rather than poking at GMP's structs
// from Swift.

#ifndef LAYOUTBENCH_CGMP_SHIM_H
#define LAYOUTBENCH_CGMP_SHIM_H

#include <gmp.h>
#include <limits.h>
#include <stdint.h>

// Rational's fast path moves values between Int64 and GMP through `long` and single
// limbs, which is exact only where both are 64 bits (LP64: Linux, macOS).
#if LONG_MAX != INT64_MAX || GMP_LIMB_BITS != 64 || GMP_NAIL_BITS != 0
#error "ExactArithmetic needs 64-bit long and 64-bit GMP limbs without nails"
#endif

// MARK: mpq

static inline void lb_mpq_init(mpq_ptr q) { mpq_init(q); }
static inline void lb_mpq_clear(mpq_ptr q) { mpq_clear(q); }
static inline void lb_mpq_set(mpq_ptr r, mpq_srcptr q) { mpq_set(r, q); }
static inline void lb_mpq_set_si(mpq_ptr q, long num, unsigned long den) { mpq_set_si(q, num, den); }
static inline int lb_mpq_set_str(mpq_ptr q, const char *text, int base) { return mpq_set_str(q, text, base); }
static inline char *lb_mpq_get_str(char *buffer, int base, mpq_srcptr q) { return mpq_get_str(buffer, base, q); }
static inline void lb_mpq_canonicalize(mpq_ptr q) { mpq_canonicalize(q); }

static inline void lb_mpq_add(mpq_ptr r, mpq_srcptr a, mpq_srcptr b) { mpq_add(r, a, b); }
static inline void lb_mpq_sub(mpq_ptr r, mpq_srcptr a, mpq_srcptr b) { mpq_sub(r, a, b); }
static inline void lb_mpq_mul(mpq_ptr r, mpq_srcptr a, mpq_srcptr b) { mpq_mul(r, a, b); }
static inline void lb_mpq_div(mpq_ptr r, mpq_srcptr a, mpq_srcptr b) { mpq_div(r, a, b); }
static inline void lb_mpq_neg(mpq_ptr r, mpq_srcptr q) { mpq_neg(r, q); }
static inline void lb_mpq_abs(mpq_ptr r, mpq_srcptr q) { mpq_abs(r, q); }
static inline void lb_mpq_inv(mpq_ptr r, mpq_srcptr q) { mpq_inv(r, q); }

static inline int lb_mpq_cmp(mpq_srcptr a, mpq_srcptr b) { return mpq_cmp(a, b); }
static inline int lb_mpq_equal(mpq_srcptr a, mpq_srcptr b) { return mpq_equal(a, b); }
static inline int lb_mpq_sgn(mpq_srcptr q) { return mpq_sgn(q); }

static inline mpz_ptr lb_mpq_numref(mpq_ptr q) { return mpq_numref(q); }
static inline mpz_ptr lb_mpq_denref(mpq_ptr q) { return mpq_denref(q); }
static inline mpz_srcptr lb_mpq_numref_const(mpq_srcptr q) { return mpq_numref(q); }
static inline mpz_srcptr lb_mpq_denref_const(mpq_srcptr q) { return mpq_denref(q); }

/// A read-only mpq viewing a small rational without allocating: the limbs live in the
/// struct itself (GMP's `mpz_roinit_n`). Never pass it to `mpq_clear` or as an output.
typedef struct {
    __mpq_struct q;
    mp_limb_t limbs[2];
} lb_small_mpq;

/// Points `s` at `num/den` (already canonical, `den > 0`) and returns the mpq to read.
/// The result points into `s`, so `s` must not move while it is in use.
static inline mpq_srcptr lb_small_mpq_init(lb_small_mpq *s, long num, long den) {
    // Negating through unsigned is defined for LONG_MIN, unlike `-num`.
    s->limbs[0] = num < 0 ? -(mp_limb_t)num : (mp_limb_t)num;
    s->limbs[1] = (mp_limb_t)den;
    mpz_roinit_n(&s->q._mp_num, &s->limbs[0], num < 0 ? -1 : (num > 0 ? 1 : 0));
    mpz_roinit_n(&s->q._mp_den, &s->limbs[1], 1);
    return &s->q;
}

// MARK: mpz

static inline void lb_mpz_init(mpz_ptr z) { mpz_init(z); }
static inline void lb_mpz_clear(mpz_ptr z) { mpz_clear(z); }
static inline void lb_mpz_set_ui(mpz_ptr z, unsigned long value) { mpz_set_ui(z, value); }
static inline int lb_mpz_set_str(mpz_ptr z, const char *text, int base) { return mpz_set_str(z, text, base); }
static inline void lb_mpz_ui_pow_ui(mpz_ptr z, unsigned long base, unsigned long exponent) { mpz_ui_pow_ui(z, base, exponent); }
static inline void lb_mpz_mul(mpz_ptr r, mpz_srcptr a, mpz_srcptr b) { mpz_mul(r, a, b); }
static inline void lb_mpz_mul_2exp(mpz_ptr r, mpz_srcptr a, mp_bitcnt_t bits) { mpz_mul_2exp(r, a, bits); }
static inline void lb_mpz_abs(mpz_ptr r, mpz_srcptr a) { mpz_abs(r, a); }
static inline void lb_mpz_tdiv_qr(mpz_ptr q, mpz_ptr r, mpz_srcptr n, mpz_srcptr d) { mpz_tdiv_qr(q, r, n, d); }

static inline int lb_mpz_sgn(mpz_srcptr z) { return mpz_sgn(z); }
static inline int lb_mpz_cmp_ui(mpz_srcptr z, unsigned long value) { return mpz_cmp_ui(z, value); }
static inline int lb_mpz_fits_slong_p(mpz_srcptr z) { return mpz_fits_slong_p(z); }
static inline long lb_mpz_get_si(mpz_srcptr z) { return mpz_get_si(z); }
static inline unsigned long lb_mpz_get_ui(mpz_srcptr z) { return mpz_get_ui(z); }
static inline size_t lb_mpz_sizeinbase(mpz_srcptr z, int base) { return mpz_sizeinbase(z, base); }
static inline size_t lb_mpz_size(mpz_srcptr z) { return mpz_size(z); }
static inline mp_srcptr lb_mpz_limbs_read(mpz_srcptr z) { return mpz_limbs_read(z); }

#endif
