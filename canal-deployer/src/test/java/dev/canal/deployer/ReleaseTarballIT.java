package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.testsupport.BackgroundProcess;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.UnpackedTarball;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as an operator receives it: the tarball {@code mvn package} built, unpacked. Its configuration is
 * documented, the documentation's links lead somewhere, a start that cannot succeed says why, the example
 * consumer on the official client builds and receives rows, and the Grafana dashboard asks only for metrics the
 * server exports.
 */
@ExtendWith(MySqlServerExtension.class)
class ReleaseTarballIT {

    private static final Path REPOSITORY = Path.of("..");
    private static final Path EXAMPLE = REPOSITORY.resolve("examples/consumer");
    private static final Path DASHBOARD = Path.of("conf/metrics/Canal_instances_tmpl.json");
    private static final String SCHEMA = "release_it";
    private static final Duration EXAMPLE_LIMIT = Duration.ofMinutes(5);

    /** A shipped key, commented out or not: {@code key = value}, {@code #key = value}. */
    private static final Pattern CONF_KEY =
            Pattern.compile("(?m)^#?\\s*((?:canal|kafka|rocketmq|rabbitmq|pulsarmq)\\.[\\w.{}-]+)\\s*[=:]");
    /** The key column of the reference's tables. */
    private static final Pattern REFERENCE_KEY = Pattern.compile("(?m)^\\| `([^`]+)` \\|");
    private static final Pattern REFERENCE_WILDCARD = Pattern.compile("\\{destination}|\\{n}|\\*");
    private static final Pattern INLINE_LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("(?m)^\\s*\\[[^\\]]+\\]:\\s*(\\S+)");
    private static final Pattern SHIPPED_DOC = Pattern.compile("docs/[a-z-]+\\.md");
    private static final Pattern METRIC_NAME = Pattern.compile("\\b((?:canal|jvm|process)_[a-z0-9_]+)");

    @TempDir
    Path home;

    private UnpackedTarball canal;
    private int port;
    private int metricsPort;

    @BeforeEach
    void unpack() throws Exception {
        canal = UnpackedTarball.unpack(UnpackedTarball.built(Path.of("target"), "canal-deployer-.*\\.tar\\.gz"), home);
        port = TcpPorts.free();
        metricsPort = TcpPorts.free();
        canal.edit("conf/canal.properties", text -> text
                .replace("canal.port = 11111", "canal.port = " + port)
                .replace("canal.metrics.pull.port = 11112", "canal.metrics.pull.port = " + metricsPort)
                .replace("canal.auto.scan = true", "canal.auto.scan = false"));
    }

    @AfterEach
    void stop() throws Exception {
        if (Files.exists(canal.pidFile())) {
            canal.run("stop.sh");
        }
    }

    @Test
    void everyShippedKeyIsInTheConfigurationReference() throws IOException {
        String reference = Files.readString(REPOSITORY.resolve("docs/configuration.md"));
        List<Pattern> documented = new ArrayList<>();
        Matcher m = REFERENCE_KEY.matcher(reference);
        while (m.find()) {
            documented.add(keyPattern(m.group(1)));
        }
        Set<String> shipped = new TreeSet<>();
        try (Stream<Path> files = Files.walk(home.resolve("conf"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".properties")).toList()) {
                Matcher key = CONF_KEY.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (key.find()) {
                    shipped.add(key.group(1));
                }
            }
        }

        assertThat(shipped).as("keys of the shipped conf").hasSizeGreaterThan(60);
        assertThat(shipped.stream().filter(key -> documented.stream().noneMatch(p -> p.matcher(key).matches())))
                .as("shipped keys missing from docs/configuration.md").isEmpty();
    }

    /** A reference name as a pattern: {@code {destination}} one name part, {@code {n}} a number, {@code *} the rest. */
    private static Pattern keyPattern(String name) {
        StringBuilder regex = new StringBuilder();
        Matcher wildcard = REFERENCE_WILDCARD.matcher(name);
        int literalStart = 0;
        while (wildcard.find()) {
            regex.append(Pattern.quote(name.substring(literalStart, wildcard.start()))).append(switch (wildcard.group()) {
                case "{destination}" -> "[^.]+";
                case "{n}" -> "\\d*";
                default -> ".*";
            });
            literalStart = wildcard.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(name.substring(literalStart))).toString());
    }

    @Test
    void everyDocTheShippedConfigurationAndScriptsNameIsInTheTarball() throws IOException {
        Set<String> named = new TreeSet<>();
        for (String folder : List.of("conf", "bin")) {
            try (Stream<Path> files = Files.walk(home.resolve(folder))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Matcher doc = SHIPPED_DOC.matcher(Files.readString(file, StandardCharsets.UTF_8));
                    while (doc.find()) {
                        named.add(doc.group());
                    }
                }
            }
        }

        assertThat(named).as("docs the shipped files name").contains("docs/configuration.md");
        assertThat(named).allSatisfy(doc -> assertThat(home.resolve(doc)).as(doc).isRegularFile());
        assertThat(home.resolve("docs/README.md")).isRegularFile();
    }

    @Test
    void everyRelativeLinkInTheReadmeAndDocsResolves() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(REPOSITORY.resolve("README.md"), REPOSITORY.resolve("CHANGELOG.md"),
                EXAMPLE.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page);
            for (Pattern link : List.of(INLINE_LINK, REFERENCE_LINK)) {
                Matcher m = link.matcher(text);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.startsWith("#") || target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
                        continue; // an anchor of the page itself, or a URL
                    }
                    String file = target.replaceFirst("#.*", "");
                    if (!Files.exists(page.getParent().resolve(file))) {
                        broken.add(REPOSITORY.relativize(page) + ": " + target);
                    }
                }
            }
        }

        assertThat(pages).hasSizeGreaterThan(5);
        assertThat(broken).as("relative links that lead nowhere").isEmpty();
    }

    @Test
    void startupOnABusyPortFailsNamingThePort() throws Exception {
        canal.edit("conf/canal.properties", text -> text.replace("canal.destinations = example", "canal.destinations ="));
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(port));

            UnpackedTarball.Run run = canal.run("startup.sh");

            assertThat(run.status()).as(run.output()).isEqualTo(1);
            assertThat(run.output()).contains("canal server failed to start", "canal.port", ":" + port,
                    "Address already in use");
        }
        assertThat(canal.pidFile()).doesNotExist();
    }

    @Test
    void startupWithAnInvalidValueFailsNamingFileAndKey() throws Exception {
        canal.edit("conf/canal.properties", text -> text.replace("canal.port = " + port, "canal.port = eleven"));

        UnpackedTarball.Run run = canal.run("startup.sh");

        assertThat(run.status()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("canal server failed to start", "canal.port", "eleven",
                home.resolve("conf/canal.properties").toString());
        assertThat(canal.pidFile()).doesNotExist();
    }

    @Test
    void exampleConsumerReceivesRowsAcrossAServerRestartAndTheDashboardAsksOnlyForExportedMetrics(MySqlServer db)
            throws Exception {
        Path consumerJar = buildExampleConsumer();
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        canal.edit("conf/example/instance.properties", text -> text
                .replace("canal.instance.master.address = 127.0.0.1:3306",
                        "canal.instance.master.address = " + db.host() + ":" + db.port())
                .replace("canal.instance.master.journal.name =", "canal.instance.master.journal.name = " + start.file())
                .replace("canal.instance.master.position =", "canal.instance.master.position = " + start.position())
                .replace("canal.instance.dbUsername = canal", "canal.instance.dbUsername = " + db.replicationUser())
                .replace("canal.instance.dbPassword = canal", "canal.instance.dbPassword = " + db.replicationPassword()));
        UnpackedTarball.Run startup = canal.run("startup.sh");
        assertThat(startup.status()).as("%s%n%s", startup.output(), canal.logs()).isZero();
        insertRows(db, 1, 3);

        try (BackgroundProcess consumer = startExampleConsumer(consumerJar, "127.0.0.1:" + port, "example",
                SCHEMA + "\\..*", "6")) {
            await().atMost(EXAMPLE_LIMIT).untilAsserted(() -> assertThat(consumer.output()).contains("  id = 3"));
            UnpackedTarball.Run restart = canal.run("restart.sh");
            assertThat(restart.status()).as("%s%n%s", restart.output(), canal.logs()).isZero();
            insertRows(db, 4, 6);

            String printed = consumer.awaitSuccess(EXAMPLE_LIMIT, canal::logs);

            assertThat(printed).contains("INSERT " + SCHEMA + ".t at " + start.file() + ":", "  id = 1", "  v = row 1",
                    "connection to the server lost", "  id = 4", "  id = 6", "  v = row 6");
        }

        Set<String> queried = dashboardMetricNames();
        assertThat(queried).hasSizeGreaterThan(20);
        // a scrape a moment late would do: delays and rates appear once the rows passed
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(queried)
                .as("metrics the dashboard queries, against those the server exports")
                .isSubsetOf(exportedSampleNames(Exposition.scrape(metricsPort).text())));
    }

    private static void insertRows(MySqlServer db, int first, int last) throws Exception {
        for (int id = first; id <= last; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }
    }

    /** {@code mvn package} of examples/consumer with the Maven running this build; the runnable jar. */
    private static Path buildExampleConsumer() throws IOException, InterruptedException {
        String mavenHome = System.getProperty("maven.home");
        String mvn = mavenHome == null || mavenHome.isBlank() ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
        List<String> command = new ArrayList<>(List.of(mvn, "-B", "-q", "-f",
                EXAMPLE.resolve("pom.xml").toAbsolutePath().normalize().toString(), "package"));
        if (Boolean.getBoolean("maven.offline")) {
            command.add("-o");
        }
        String localRepository = System.getProperty("maven.repo.local");
        if (localRepository != null && !localRepository.isBlank()) {
            command.add("-Dmaven.repo.local=" + localRepository);
        }
        String output;
        try (BackgroundProcess build = BackgroundProcess.start(new ProcessBuilder(command), "building the example consumer")) {
            output = build.awaitSuccess(EXAMPLE_LIMIT);
        }
        Path jar = EXAMPLE.resolve("target/canal-consumer-example.jar");
        assertThat(jar).as("example consumer jar; mvn said:%n%s", output).isRegularFile();
        return jar;
    }

    private static BackgroundProcess startExampleConsumer(Path jar, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-jar", jar.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return BackgroundProcess.start(new ProcessBuilder(command), "the example consumer");
    }

    /** Every metric name in the dashboard's queries and variables. */
    private static Set<String> dashboardMetricNames() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(REPOSITORY.resolve(DASHBOARD).toFile());
        Set<String> names = new TreeSet<>();
        for (String field : List.of("expr", "query", "definition")) {
            for (JsonNode node : dashboard.findValues(field)) {
                Matcher m = METRIC_NAME.matcher(node.isTextual() ? node.asText() : node.toString());
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    /** The sample names of a text exposition (histogram buckets, sums and counts under their own names). */
    private static Set<String> exportedSampleNames(String exposition) {
        return exposition.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
    }
}
