package dev.canal.binlog.event;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Little-endian byte writer for building events in tests. */
public final class Bytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public Bytes u8(int v) {
        out.write(v);
        return this;
    }

    public Bytes u16(int v) {
        return le(v, 2);
    }

    public Bytes u24(int v) {
        return le(v, 3);
    }

    public Bytes u32(long v) {
        return le(v, 4);
    }

    public Bytes u48(long v) {
        return le(v, 6);
    }

    public Bytes u64(long v) {
        return le(v, 8);
    }

    public Bytes le(long v, int width) {
        for (int i = 0; i < width; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    public Bytes be(long v, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    public Bytes lenenc(long v) {
        if (v < 251) {
            return u8((int) v);
        }
        if (v < 1 << 16) {
            return u8(0xFC).u16((int) v);
        }
        if (v < 1 << 24) {
            return u8(0xFD).u24((int) v);
        }
        return u8(0xFE).u64(v);
    }

    public Bytes bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    public Bytes bytes(int... b) {
        for (int x : b) {
            out.write(x);
        }
        return this;
    }

    public Bytes str(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public int size() {
        return out.size();
    }

    public byte[] toArray() {
        return out.toByteArray();
    }
}
