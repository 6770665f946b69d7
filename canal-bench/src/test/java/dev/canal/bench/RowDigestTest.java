package dev.canal.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RowDigestTest {

    private static final List<String> ROW = List.of("1", "a", RowDigest.NULL);

    @Test
    void sameRowsInAnotherOrderGiveTheSameDigest() {
        RowDigest one = new RowDigest();
        one.add("s.t", "INSERT", "1", null, ROW);
        one.add("s.t", "DELETE", "2", List.of("2", "b", "x"), null);
        RowDigest other = new RowDigest();
        other.add("s.t", "DELETE", "2", List.of("2", "b", "x"), null);
        other.add("s.t", "INSERT", "1", null, ROW);

        assertThat(one.value()).isEqualTo(other.value());
    }

    @Test
    void aChangedValueTypeOrImageSideChangesTheDigest() {
        String base = digest("INSERT", null, ROW);

        assertThat(digest("INSERT", null, List.of("1", "b", RowDigest.NULL))).isNotEqualTo(base);
        assertThat(digest("INSERT", null, List.of("1", "a", ""))).isNotEqualTo(base);
        assertThat(digest("UPDATE", null, ROW)).isNotEqualTo(base);
        assertThat(digest("INSERT", ROW, null)).isNotEqualTo(base);
    }

    @Test
    void aDuplicatedRowIsCountedAndChangesTheDigest() {
        RowDigest twice = new RowDigest();
        twice.add("s.t", "INSERT", "1", null, ROW);
        twice.add("s.t", "INSERT", "1", null, ROW);

        assertThat(twice.rows()).isEqualTo(2);
        assertThat(twice.value()).isNotEqualTo(digest("INSERT", null, ROW));
    }

    @Test
    void workloadMixSplitsRowsByPercentages() {
        Workload.Mix mix = Workload.Mix.of(1000, "60:30:10");

        assertThat(mix).isEqualTo(new Workload.Mix(600, 300, 100));
        assertThat(mix.total()).isEqualTo(1000);
    }

    private static String digest(String type, List<String> before, List<String> after) {
        RowDigest d = new RowDigest();
        d.add("s.t", type, "1", before, after);
        return d.value();
    }
}
