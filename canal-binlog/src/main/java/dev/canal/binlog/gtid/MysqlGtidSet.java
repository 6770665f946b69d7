package dev.canal.binlog.gtid;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A MySQL GTID set ({@code uuid:1-5:7,uuid2:1-3}, with MySQL 8.3+ tags as {@code uuid:1-5:tag:1-3}): the executed
 * set a replica resumes from. Parses and prints the text form, adds single GTIDs while the
 * binlog streams, encodes the binary form sent with COM_BINLOG_DUMP_GTID and decodes the body of a PREVIOUS_GTIDS
 * event. Sources print in uuid order, untagged numbers before tags, as MySQL does.
 *
 * <p>Mutable and not thread-safe; {@link #copy()} gives an independent set.
 */
public final class MysqlGtidSet {

    private static final int UUID_BYTES = 16;
    private static final int UUID_TEXT_LENGTH = 36;
    private static final int MAX_TAG_LENGTH = 32;
    /** High byte of the 8-byte source count in the binary form: 1 means the tagged layout (MySQL 8.3+). */
    private static final int TAGGED_FORMAT = 1;
    private static final String UNTAGGED = "";
    private static final Pattern TAG = Pattern.compile("[a-z_][a-z0-9_]{0,31}");
    private static final Pattern INTERVAL = Pattern.compile("\\d+(-\\d+)?");

    /** uuid (lower case) → tag ("" when untagged) → numbers. */
    private final TreeMap<String, TreeMap<String, GnoIntervals>> sources = new TreeMap<>();

    public MysqlGtidSet() {
    }

    /** Parses the text form; blank text is the empty set. Whitespace (SHOW MASTER STATUS puts newlines) is ignored. */
    public static MysqlGtidSet parse(String text) {
        MysqlGtidSet set = new MysqlGtidSet();
        if (text == null || text.isBlank()) {
            return set;
        }
        for (String part : text.replaceAll("\\s+", "").split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            String[] items = part.split(":");
            String uuid = checkedUuid(items[0], text);
            String tag = UNTAGGED;
            boolean sawInterval = false;
            for (int i = 1; i < items.length; i++) {
                String item = items[i];
                if (INTERVAL.matcher(item).matches()) {
                    int dash = item.indexOf('-');
                    long start = parseGno(dash < 0 ? item : item.substring(0, dash), text);
                    long end = dash < 0 ? start : parseGno(item.substring(dash + 1), text);
                    if (end < start) {
                        throw new IllegalArgumentException("GTID interval " + item + " ends before it starts in '" + text + "'");
                    }
                    set.intervals(uuid, tag).add(start, end);
                    sawInterval = true;
                } else {
                    tag = checkedTag(item, text);
                }
            }
            if (!sawInterval) {
                throw new IllegalArgumentException("GTID set element '" + part + "' has no transaction numbers in '"
                        + text + "'");
            }
        }
        return set;
    }

    /**
     * Decodes the binary form (the body of a PREVIOUS_GTIDS event, or what {@link #encode()} writes) from a slice of
     * {@code buf}; bytes after the set (e.g. a checksum) are not part of {@code length}.
     */
    public static MysqlGtidSet decode(byte[] buf, int offset, int length) {
        LittleEndianCursor in = new LittleEndianCursor(buf, offset, length);
        long header = in.int64();
        boolean tagged = (header >>> 56) == TAGGED_FORMAT;
        long count = tagged ? (header >>> 8) & 0xFFFF_FFFF_FFFFL : header;
        MysqlGtidSet set = new MysqlGtidSet();
        for (long s = 0; s < count; s++) {
            String uuid = uuidText(in);
            String tag = tagged ? readTag(in) : UNTAGGED;
            long intervalCount = in.int64();
            if (intervalCount < 0 || intervalCount > in.remaining() / 16) {
                throw new MalformedDataException("GTID set claims " + intervalCount + " intervals for " + uuid
                        + " with " + in.remaining() + " bytes left");
            }
            for (long i = 0; i < intervalCount; i++) {
                long start = in.int64();
                long endExclusive = in.int64();
                if (start < 1 || endExclusive <= start) {
                    throw new MalformedDataException("bad GTID interval [" + start + ", " + endExclusive + ") for " + uuid);
                }
                set.intervals(uuid, tag).add(start, endExclusive - 1);
            }
        }
        return set;
    }

    /** Adds one transaction {@code uuid:gno} (untagged). */
    public void add(String uuid, long gno) {
        add(uuid, UNTAGGED, gno);
    }

    /** Adds one transaction {@code uuid:tag:gno}; an empty tag means untagged. */
    public void add(String uuid, String tag, long gno) {
        intervals(normalisedUuid(uuid), tag.isEmpty() ? UNTAGGED : tag.toLowerCase(Locale.ROOT)).add(gno);
    }

    /** Adds every transaction of {@code other}. */
    public void addAll(MysqlGtidSet other) {
        other.sources.forEach((uuid, tags) -> tags.forEach((tag, gnos) -> {
            GnoIntervals mine = intervals(uuid, tag);
            for (int i = 0; i < gnos.size(); i++) {
                mine.add(gnos.start(i), gnos.end(i));
            }
        }));
    }

    public boolean contains(String uuid, long gno) {
        TreeMap<String, GnoIntervals> tags = sources.get(normalisedUuid(uuid));
        GnoIntervals gnos = tags == null ? null : tags.get(UNTAGGED);
        return gnos != null && gnos.contains(gno);
    }

    public boolean isEmpty() {
        return sources.isEmpty();
    }

    public MysqlGtidSet copy() {
        MysqlGtidSet c = new MysqlGtidSet();
        sources.forEach((uuid, tags) -> {
            TreeMap<String, GnoIntervals> copied = new TreeMap<>();
            tags.forEach((tag, gnos) -> copied.put(tag, gnos.copy()));
            c.sources.put(uuid, copied);
        });
        return c;
    }

    /**
     * The binary form for COM_BINLOG_DUMP_GTID: an 8-byte source count, then per source the 16-byte uuid, (tag),
     * an 8-byte interval count and each interval as 8-byte start and 8-byte exclusive end. The tagged layout is
     * used only when a tag is present, so older servers get the form they know.
     */
    public byte[] encode() {
        boolean tagged = sources.values().stream().anyMatch(t -> t.keySet().stream().anyMatch(tag -> !tag.isEmpty()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long count = sources.values().stream().mapToLong(Map::size).sum();
        writeLong(out, tagged ? ((long) TAGGED_FORMAT << 56) | (count << 8) | TAGGED_FORMAT : count);
        sources.forEach((uuid, tags) -> tags.forEach((tag, gnos) -> {
            out.writeBytes(uuidBytes(uuid));
            if (tagged) {
                byte[] t = tag.getBytes(StandardCharsets.US_ASCII);
                out.write(t.length << 1); // MySQL's variable-length integer: one byte, low bit 0, for values < 128
                out.writeBytes(t);
            }
            writeLong(out, gnos.size());
            for (int i = 0; i < gnos.size(); i++) {
                writeLong(out, gnos.start(i));
                writeLong(out, gnos.end(i) + 1);
            }
        }));
        return out.toByteArray();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sources.forEach((uuid, tags) -> {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(uuid);
            tags.forEach((tag, gnos) -> {
                if (!tag.isEmpty()) {
                    sb.append(':').append(tag);
                }
                gnos.appendText(sb);
            });
        });
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MysqlGtidSet other && sources.equals(other.sources);
    }

    @Override
    public int hashCode() {
        return sources.hashCode();
    }

    private GnoIntervals intervals(String uuid, String tag) {
        return sources.computeIfAbsent(uuid, u -> new TreeMap<>()).computeIfAbsent(tag, t -> new GnoIntervals());
    }

    private static String normalisedUuid(String uuid) {
        return checkedUuid(uuid, uuid);
    }

    private static String checkedUuid(String uuid, String context) {
        String u = uuid.toLowerCase(Locale.ROOT);
        boolean ok = u.length() == UUID_TEXT_LENGTH;
        for (int i = 0; ok && i < u.length(); i++) {
            char ch = u.charAt(i);
            ok = (i == 8 || i == 13 || i == 18 || i == 23) ? ch == '-' : Character.digit(ch, 16) >= 0;
        }
        if (!ok) {
            throw new IllegalArgumentException("bad server uuid '" + uuid + "' in GTID set '" + context + "'");
        }
        return u;
    }

    private static String checkedTag(String tag, String context) {
        String t = tag.toLowerCase(Locale.ROOT);
        if (!TAG.matcher(t).matches()) {
            throw new IllegalArgumentException("bad GTID tag or interval '" + tag + "' in '" + context + "'");
        }
        return t;
    }

    private static long parseGno(String digits, String context) {
        try {
            long gno = Long.parseLong(digits);
            if (gno < 1) {
                throw new IllegalArgumentException("GTID number " + digits + " must be at least 1 in '" + context + "'");
            }
            return gno;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GTID number " + digits + " out of range in '" + context + "'", e);
        }
    }

    private static String readTag(LittleEndianCursor in) {
        int first = in.uint8();
        if ((first & 1) != 0 || (first >> 1) > MAX_TAG_LENGTH) {
            throw new MalformedDataException("bad GTID tag length byte 0x" + Integer.toHexString(first)
                    + " at offset " + (in.offset() - 1));
        }
        int length = first >> 1;
        return length == 0 ? UNTAGGED : checkedTag(in.string(length, StandardCharsets.US_ASCII), "binary GTID set");
    }

    private static String uuidText(LittleEndianCursor in) {
        StringBuilder sb = new StringBuilder(UUID_TEXT_LENGTH);
        for (int i = 0; i < UUID_BYTES; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                sb.append('-');
            }
            int b = in.uint8();
            sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }

    private static byte[] uuidBytes(String uuid) {
        String hex = uuid.replace("-", "");
        byte[] out = new byte[UUID_BYTES];
        for (int i = 0; i < UUID_BYTES; i++) {
            out[i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
        }
        return out;
    }

    private static void writeLong(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }
}
