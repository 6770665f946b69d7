package dev.canal.deployer;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigKeySource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders docs/configuration.md from the declared keys, so the reference cannot drift from the code. Run with the
 * file to write as argument; a test fails when the committed file differs from what this renders.
 */
public final class ConfigReference {

    private ConfigReference() {
    }

    public static void main(String[] args) throws IOException {
        Files.writeString(Path.of(args[0]), render(), StandardCharsets.UTF_8);
    }

    static String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration reference\n\n")
                .append("Every key this server reads, with the value it takes when the key is absent or blank, what")
                .append(" it means, whether\nCanal 1.1.x has it, and whether this server acts on it. The keys and")
                .append(" their defaults are Canal's unless\nmarked otherwise; an existing `canal.properties` and")
                .append(" `instance.properties` work unchanged.\n\n")
                .append("- A value is looked up as Canal does: a JVM system property of the same name, then an")
                .append(" environment variable of\n  the same name, then the destination's `instance.properties`,")
                .append(" then `canal.properties`. `${key}` and\n  `${key:default}` inside a value are resolved the same")
                .append(" way.\n")
                .append("- A value of the wrong type, or outside what the \"allowed\" column says, stops start-up with")
                .append(" the file and key\n  named. Keys this server does not act on, and keys nobody knows, are")
                .append(" named in one warning at\n  start-up and ignored.\n")
                .append("- `{destination}` stands for a destination's name, `{n}` for a number, `*` for any rest of")
                .append(" the name.\n\n")
                .append("This page is generated from the declarations in the code (`ConfigKey`); a test keeps it in")
                .append(" step.\n");
        for (ConfigKeySource source : ConfigCatalog.sources()) {
            out.append("\n## ").append(source.title()).append("\n\nUsually set in `").append(source.file())
                    .append("`.\n\n| key | default | allowed | meaning | Canal has it | supported |\n")
                    .append("|---|---|---|---|---|---|\n");
            for (ConfigKey key : source.keys()) {
                out.append("| `").append(key.name()).append("` | ").append(defaultText(key)).append(" | ")
                        .append(key.constraint() == null ? "" : key.constraint().describe()).append(" | ")
                        .append(key.meaning().replace("|", "\\|")).append(" | ").append(key.canal() ? "yes" : "no")
                        .append(" | ").append(key.supported() ? "yes" : "no, ignored").append(" |\n");
            }
        }
        return out.toString();
    }

    private static String defaultText(ConfigKey key) {
        if (key.defaultValue() == null) {
            return "";
        }
        return key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue().replace("|", "\\|") + "`";
    }
}
