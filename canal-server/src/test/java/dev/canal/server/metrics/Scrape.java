package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One scrape of the exporter over HTTP, with its samples by series ({@code name{label="value",...}}). */
record Scrape(String text, Map<String, Double> samples) {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    static Scrape of(PrometheusExporter exporter) {
        return of(exporter.port(), "/metrics");
    }

    static Scrape of(int port, String path) {
        HttpResponse<String> response;
        try {
            response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("scrape of port " + port + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(response.statusCode()).as("status of %s", path).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(TextFormat.CONTENT_TYPE);
        return parse(response.body());
    }

    static Scrape parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return new Scrape(text, samples);
    }

    /** The value of one series, labels given as name, value pairs in the exporter's order; null when absent. */
    Double value(String name, String... labelPairs) {
        return samples.get(series(name, labelPairs));
    }

    boolean has(String name, String... labelPairs) {
        return samples.containsKey(series(name, labelPairs));
    }

    /** Every series of a family (samples named exactly {@code name}, with any labels). */
    List<String> seriesOf(String name) {
        return samples.keySet().stream().filter(s -> s.equals(name) || s.startsWith(name + "{")).toList();
    }

    private static String series(String name, String... labelPairs) {
        if (labelPairs.length == 0) {
            return name;
        }
        StringBuilder out = new StringBuilder(name).append('{');
        for (int i = 0; i < labelPairs.length; i += 2) {
            out.append(i == 0 ? "" : ",").append(labelPairs[i]).append("=\"").append(labelPairs[i + 1]).append('"');
        }
        return out.append('}').toString();
    }
}
