package dev.canal.binlog.net;

/** Client/server capability bits of the handshake, the ones this client uses or reads. */
final class CapabilityFlags {

    static final int LONG_PASSWORD = 0x0000_0001;
    static final int LONG_FLAG = 0x0000_0004;
    static final int CONNECT_WITH_DB = 0x0000_0008;
    static final int PROTOCOL_41 = 0x0000_0200;
    static final int SSL = 0x0000_0800;
    static final int TRANSACTIONS = 0x0000_2000;
    static final int SECURE_CONNECTION = 0x0000_8000;
    static final int PLUGIN_AUTH = 0x0008_0000;
    static final int PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x0020_0000;

    /** What this client asks for (intersected with the server's); no DEPRECATE_EOF, so result sets end in EOF packets. */
    static final int CLIENT_DEFAULT = LONG_PASSWORD | LONG_FLAG | PROTOCOL_41 | TRANSACTIONS | SECURE_CONNECTION
            | PLUGIN_AUTH | PLUGIN_AUTH_LENENC_CLIENT_DATA;

    private CapabilityFlags() {
    }
}
