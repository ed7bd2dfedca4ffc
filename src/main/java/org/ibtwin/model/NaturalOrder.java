package org.ibtwin.model;

/** The order people expect of names with numbers in them. */
public final class NaturalOrder {
    private NaturalOrder() {
    }

    /** "node2" before "node10", mlx5_2 before mlx5_10: digit runs compare as numbers. */
    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                while (si < i - 1 && a.charAt(si) == '0') {   // leading zeros, keeping one digit
                    si++;
                }
                while (sj < j - 1 && b.charAt(sj) == '0') {
                    sj++;
                }
                int c = Integer.compare(i - si, j - sj);
                for (int k = 0; c == 0 && k < i - si; k++) {
                    c = Character.compare(a.charAt(si + k), b.charAt(sj + k));
                }
                if (c != 0) {
                    return c;
                }
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
