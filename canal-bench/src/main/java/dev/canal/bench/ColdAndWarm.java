package dev.canal.bench;

import java.util.List;

/**
 * Runs a catch-up stage three times in one JVM: the first pass is reported as {@code STAGE-cold} (what a freshly
 * started replica pays: most of its CPU goes to JIT compilation on a binlog caught up in seconds), the second
 * only warms up, and the third is reported as {@code STAGE}: the speed of a replica that has been running for a
 * while. The in-memory decode stages report the same two figures ({@link DecodeStage}).
 */
final class ColdAndWarm {

    /** One pass from the start of the workload's binlog. */
    interface Pass {
        /** @param check whether the rows are digested for the content check (not needed for the warm-up) */
        StageResult run(String stage, boolean check) throws Exception;
    }

    private ColdAndWarm() {
    }

    static List<StageResult> run(String stage, Pass pass) throws Exception {
        StageResult cold = pass.run(stage + "-cold", true);
        pass.run(stage + "-warm-up", false);
        StageResult warm = pass.run(stage, true);
        return List.of(cold, warm);
    }
}
