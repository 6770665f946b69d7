package dev.canal.binlog.event;

import java.util.List;

/**
 * The status variables of a QUERY event, each null when absent. Parsing stops at the first code it does not
 * know (their lengths are not self-describing); {@code unknownCode} then names it, and schema and SQL are still
 * read from their fixed offsets.
 *
 * @param charsetClient            {@code character_set_client} id
 * @param collationConnection      {@code collation_connection} id
 * @param collationServer          {@code collation_server} id
 * @param updatedDbNames           databases the statement changed (null when absent or over the limit of 16)
 * @param microseconds             fractional part of the start time (Q_MICROSECONDS, or MariaDB Q_HRNOW)
 * @param ddlXid                   XID of a DDL logged with one (MySQL 8 atomic DDL)
 * @param mariaXid                 MariaDB Q_XID
 * @param unknownCode              the status variable code at which parsing stopped, null when all were known
 */
public record QueryStatusVariables(Long flags2, Long sqlMode, String catalog, Integer autoIncrementIncrement,
        Integer autoIncrementOffset, Integer charsetClient, Integer collationConnection, Integer collationServer,
        String timeZone, Integer lcTimeNames, Integer charsetDatabase, Long tableMapForUpdate, Long masterDataWritten,
        String invokerUser, String invokerHost, List<String> updatedDbNames, Integer microseconds,
        Boolean explicitDefaultsForTimestamp, Long ddlXid, Integer defaultCollationForUtf8mb4,
        Integer sqlRequirePrimaryKey, Integer defaultTableEncryption, Long mariaXid, Integer mariaGtidFlags3,
        Integer unknownCode) {
}
