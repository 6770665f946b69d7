package dev.canal.deployer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text exposition, and the value of a destination's sample in it. */
record Exposition(String text) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static Exposition scrape(int port) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("scrape of port " + port + " answered " + response.statusCode()
                        + ": " + response.body());
            }
            return new Exposition(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scrape port " + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    boolean has(String metric, String destination) {
        return sample(metric, destination).find();
    }

    /** The value of the metric's sample labelled with the destination; fails naming both when there is none. */
    double value(String metric, String destination) {
        Matcher m = sample(metric, destination);
        if (!m.find()) {
            throw new AssertionError("no " + metric + " sample for destination " + destination + " in:\n" + text);
        }
        return Double.parseDouble(m.group(1));
    }

    /** The value of the metric's sample labelled with the consumer (docs/consumers.md); fails naming both when none. */
    double consumerValue(String metric, String consumer) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(metric) + "\\{[^}]*consumer=\"" + Pattern.quote(consumer)
                + "\"[^}]*} (\\S+)$").matcher(text);
        if (!m.find()) {
            throw new AssertionError("no " + metric + " sample for consumer " + consumer + " in:\n" + text);
        }
        return Double.parseDouble(m.group(1));
    }

    private Matcher sample(String metric, String destination) {
        return Pattern.compile("(?m)^" + Pattern.quote(metric) + "\\{[^}]*destination=\"" + Pattern.quote(destination)
                + "\"[^}]*} (\\S+)$").matcher(text);
    }
}
