package dev.canal.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The daemon's Prometheus exporter ({@code canal.metrics.pull.port} of its canal.properties), read one series at a
 * time: the store's counters tell a scenario whether the parser is waiting for room and how much the store holds.
 */
final class DaemonMetrics {

    private static final Pattern PORT = Pattern.compile("(?m)^canal\\.metrics\\.pull\\.port = (\\d+)$");

    private final URI uri;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    DaemonMetrics(CanalDaemon daemon) throws IOException {
        String conf = Files.readString(daemon.home.resolve("conf/canal.properties"));
        Matcher port = PORT.matcher(conf);
        if (!port.find()) {
            throw new IllegalStateException("no canal.metrics.pull.port in " + daemon.home + "/conf/canal.properties");
        }
        this.uri = URI.create("http://127.0.0.1:" + port.group(1) + "/metrics");
    }

    /** The endpoint's port. */
    int port() {
        return uri.getPort();
    }

    /** One whole scrape, as text. */
    String scrape() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The value of the first sample of {@code name} (with or without a {@code _total} suffix), 0 if none yet. */
    double value(String name) throws IOException, InterruptedException {
        String text = scrape();
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:_total)?(?:\\{[^}]*})?\\s+(\\S+)")
                .matcher(text);
        return sample.find() ? Double.parseDouble(sample.group(1)) : 0;
    }

    /** The value of the sample of {@code name} whose {@code label} is {@code labelValue}; NaN if there is none. */
    double value(String name, String label, String labelValue) throws IOException, InterruptedException {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*\\b" + Pattern.quote(label) + "=\""
                + Pattern.quote(labelValue) + "\"[^}]*}\\s+(\\S+)").matcher(scrape());
        return sample.find() ? parse(sample.group(1)) : Double.NaN;
    }

    private static double parse(String number) {
        return switch (number) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(number);
        };
    }

    /** Bytes put into the store and not acked yet (MEMSIZE accounting). */
    long storeHeldBytes() throws IOException, InterruptedException {
        return (long) (value("canal_instance_store_produce_mem") - value("canal_instance_store_consume_mem"));
    }
}
