package dev.canal.bench.differential;

/**
 * One field of an entry where Canal 1.1.7 and our server disagree, or an entry only one side delivered; a null value
 * means the field is absent on that side (or the whole entry is, for {@link #ENTRY}). {@code canalIndex} and
 * {@code oursIndex} are the entry's place in each side's list, -1 on the side that has no such entry.
 */
record Difference(int canalIndex, int oursIndex, String title, String path, String canal, String ours) {

    /** The path of a difference that is a whole entry only one side delivered. */
    static final String ENTRY = "(entry)";

    boolean isEntry() {
        return path.equals(ENTRY);
    }

    @Override
    public String toString() {
        return title + " " + path + ": Canal " + show(canal) + ", ours " + show(ours);
    }

    private static String show(String value) {
        if (value == null) {
            return "(absent)";
        }
        String shown = value.length() > 120 ? value.substring(0, 120) + "...(" + value.length() + " chars)" : value;
        return "'" + shown.replace("\0", "\\0") + "'";
    }
}
