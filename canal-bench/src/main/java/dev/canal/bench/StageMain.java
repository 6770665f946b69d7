package dev.canal.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Entry point of a stage's own JVM (started by {@link ChildJvm}): {@code STAGE key=value...} with the
 * {@link Target} keys. Prints one {@link StageResult} line per result (the decode and entries stages two: a
 * cold and a warm pass), except the server stage, which serves until its input closes.
 */
public final class StageMain {

    private StageMain() {
    }

    private static long warmAfter(List<String> args) {
        return args.stream().filter(a -> a.startsWith("warmAfter=")).map(a -> Long.parseLong(a.substring(10)))
                .findFirst().orElse(1_000_000L);
    }

    public static void main(String[] args) throws Exception {
        String stage = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        Target target = Target.fromArgs(rest);
        boolean parallel = !rest.contains("parallel=false");
        List<StageResult> results = switch (stage) {
            case "raw" -> List.of(RawDumpStage.run(target));
            case "decode-ours" -> DecodeStage.run(target, "ours");
            case "decode-reference" -> DecodeStage.run(target, "reference");
            case "decode-reference-live" -> LiveReferenceStage.run(target);
            case "entries" -> StoreStage.run(target, parallel);
            case "steady" -> SteadyStage.run(target, warmAfter(rest));
            case "consumers" -> ConsumersStage.run(target, Integer.parseInt(rest.stream()
                    .filter(a -> a.startsWith("consumers=")).findFirst().orElse("consumers=1").substring(10)));
            case "snapshot" -> List.of(SnapshotStage.run(target, chunkSize(rest)));
            case "server" -> {
                ServerStage.run(target, parallel);
                yield List.of();
            }
            default -> throw new IllegalArgumentException("unknown stage " + stage);
        };
        results.forEach(result -> System.out.println(result.toLine()));
        System.exit(0); // the parser's and Netty's threads need not be waited for
    }

    private static int chunkSize(List<String> args) {
        return args.stream().filter(a -> a.startsWith("chunk=")).map(a -> Integer.parseInt(a.substring(6)))
                .findFirst().orElse(1024);
    }
}
