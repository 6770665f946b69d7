package dev.canal.bench.differential;

/**
 * One field of one entry where Canal 1.1.7 and our server disagree; a null value means the field is absent on that
 * side (or the whole entry is, for {@link #ENTRY}).
 */
record Difference(int index, String title, String path, String canal, String ours) {

    /** The path of a difference that is a whole entry only one side delivered. */
    static final String ENTRY = "(entry)";

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
