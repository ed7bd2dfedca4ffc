package org.ibtwin.diag;

/**
 * A string's value as Perl's numeric operators ({@code ==}, {@code !=}) take it, which the infiniband-diags scripts
 * use on names and port numbers: leading white space, then the longest decimal number there (sign, digits, a
 * fraction, an exponent) or Inf/Infinity/NaN; anything else, and undef (null), is 0. "0x10" is 0, "12abc" 12.
 */
final class PerlNumbers {
    private PerlNumbers() {
    }

    static double num(String s) {
        if (s == null) {
            return 0;
        }
        int n = s.length();
        int i = 0;
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        String rest = s.substring(i).toLowerCase(java.util.Locale.ROOT);
        boolean negative = start < n && s.charAt(start) == '-';
        if (rest.startsWith("inf")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (rest.startsWith("nan")) {
            return Double.NaN;
        }
        int digits = i;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
        }
        boolean any = i > digits;
        if (i < n && s.charAt(i) == '.') {
            int f = ++i;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
            }
            any |= i > f;
        }
        if (!any) {
            return 0;
        }
        int end = i;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                j++;
            }
            int e = j;
            while (j < n && isDigit(s.charAt(j))) {
                j++;
            }
            if (j > e) {
                end = j;
            }
        }
        return Double.parseDouble(s.substring(start, end));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }
}
