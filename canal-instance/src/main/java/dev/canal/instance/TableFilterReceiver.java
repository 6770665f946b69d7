package dev.canal.instance;

/**
 * A parser whose table white list can be replaced while it runs, as a client's subscribe filter does
 * (canal-compat.md 3.1). The regex follows canal-compat.md 7.5.
 */
@FunctionalInterface
public interface TableFilterReceiver {

    void replaceWhiteFilter(String regex);
}
