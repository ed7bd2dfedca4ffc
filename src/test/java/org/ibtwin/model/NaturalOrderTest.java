package org.ibtwin.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class NaturalOrderTest {
    @Test
    void digitRunsCompareAsNumbers() {
        List<String> names = new ArrayList<>(List.of("node10", "mlx5_10", "node2", "mlx5_2", "node002x", "node02",
                "leaf9", "leaf010", "a", "node0", "node"));
        names.sort(NaturalOrder::compare);
        assertThat(names).containsExactly("a", "leaf9", "leaf010", "mlx5_2", "mlx5_10", "node", "node0", "node2",
                "node02", "node002x", "node10");
        assertThat(NaturalOrder.compare("node002", "node2")).isZero();
        assertThat(NaturalOrder.compare("node00", "node0")).isZero();
        assertThat(NaturalOrder.compare("x99", "x100")).isNegative();
        assertThat(NaturalOrder.compare("x100", "x99")).isPositive();
    }

    /** The order is a total one: antisymmetric, and equal names compare equal to the same others. */
    @Property(tries = 300)
    void antisymmetric(@ForAll @StringLength(max = 8) @Chars({'0', '1', '2', '9', 'a', '_'}) String a,
                       @ForAll @StringLength(max = 8) @Chars({'0', '1', '2', '9', 'a', '_'}) String b) {
        assertThat(Integer.signum(NaturalOrder.compare(a, b))).isEqualTo(-Integer.signum(NaturalOrder.compare(b, a)));
    }

    /** The same order as the comparison by stripped digit strings it replaced (without the regex). */
    @Property(tries = 500)
    void sameOrderAsComparingTheDigitRunsStripped(
            @ForAll @StringLength(max = 8) @Chars({'0', '1', '2', '9', 'a', '_'}) String a,
            @ForAll @StringLength(max = 8) @Chars({'0', '1', '2', '9', 'a', '_'}) String b) {
        assertThat(Integer.signum(NaturalOrder.compare(a, b))).isEqualTo(Integer.signum(reference(a, b)));
    }

    private static int reference(String a, String b) {
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
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
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
