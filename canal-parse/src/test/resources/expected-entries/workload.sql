-- The scripted workload of ExpectedEntriesIT, run statement by statement on one JDBC connection whose
-- default schema is the test's, with sql_mode '' (zero dates allowed) and time_zone '+00:00'.
-- A statement ends with ';' at the end of a line; lines starting with '--' are comments.

-- every column type, then rows of minimums, maximums, zeros and NULLs
CREATE TABLE all_types (
  id INT NOT NULL PRIMARY KEY,
  ti TINYINT, ti_u TINYINT UNSIGNED,
  si SMALLINT, si_u SMALLINT UNSIGNED,
  mi MEDIUMINT, mi_u MEDIUMINT UNSIGNED,
  i INT, i_u INT UNSIGNED,
  bi BIGINT, bi_u BIGINT UNSIGNED,
  f FLOAT, d DOUBLE,
  dec_s DECIMAL(10,3), dec_w DECIMAL(65,30),
  b1 BIT(1), b13 BIT(13), b64 BIT(64),
  y YEAR, dt DATE,
  tm TIME, tm3 TIME(3),
  dtm DATETIME, dtm6 DATETIME(6),
  ts TIMESTAMP NULL DEFAULT NULL, ts3 TIMESTAMP(3) NULL DEFAULT NULL,
  c CHAR(10), vc VARCHAR(300),
  bn BINARY(8), vbn VARBINARY(16),
  e ENUM('a','b','c d'), s SET('r','g','b'),
  tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB,
  tt TINYTEXT, tx TEXT, mt MEDIUMTEXT, lt LONGTEXT,
  j JSON,
  g GEOMETRY
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO all_types VALUES (1,
  -128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295,
  -9223372036854775808, 18446744073709551615,
  -1.5, -2.25, -12345.678, -1.5,
  b'0', b'1111111111111', 0xFFFFFFFFFFFFFFFF,
  1901, '1000-01-01', '-838:59:59', '-00:00:00.001',
  '1000-01-01 00:00:00', '1000-01-01 00:00:00.000001', '1970-01-01 00:00:01', '2038-01-19 03:14:07.999',
  'abc  ', 'héllo wörld 中文 😀  ',
  X'0001020300000000', X'00FF7F80',
  'a', 'r,g,b',
  X'00FF', X'01', X'80', X'FF',
  'tiny ü', 'text 中文', 'medium 😀', 'long',
  '{"k": "ü😀", "n": [1, 2.5, null, true]}',
  ST_GeomFromText('POINT(1 2)'));

INSERT INTO all_types VALUES (2,
  127, 127, 32767, 32768, 8388607, 8388608, 2147483647, 2147483648,
  9223372036854775807, 9223372036854775808,
  3.40282e38, 1.7976931348623157e308, 1.000, 0,
  b'1', b'1010101010101', 0,
  2155, '9999-12-31', '838:59:59', '12:34:56.780',
  '9999-12-31 23:59:59', '2024-01-01 00:00:00.1', '2024-02-29 12:00:00', '2024-02-29 12:00:00.5',
  '', REPEAT('é', 130),
  X'41', X'',
  'c d', '',
  X'', X'', X'', X'',
  '', '', '', '',
  '[1, "a", {"b": null}]',
  ST_GeomFromText('POINT(-1.5 3)'));

INSERT INTO all_types VALUES (3,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 10,
  b'0', 0, 1,
  0, '0000-00-00', '00:00:00', '-00:00:00.100',
  '0000-00-00 00:00:00', '2024-02-00 10:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000',
  'x', 'tab\tnl\nnul\0end',
  X'', X'00',
  '', 'b,r',
  NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL,
  '"str"',
  NULL);

INSERT INTO all_types (id) VALUES (4);

UPDATE all_types SET i = i - 1, vc = 'changed', ts = NULL WHERE id = 2;

DELETE FROM all_types WHERE id = 3;

-- a multi-statement transaction: a multi-row insert, an update of two rows, a delete
BEGIN;
INSERT INTO all_types (id, vc) VALUES (5, 'in tx'), (6, NULL);
UPDATE all_types SET c = 'tx' WHERE id IN (1, 5);
DELETE FROM all_types WHERE id = 4;
COMMIT;

-- DDL in the middle, a row after each so that every column position is checked
CREATE TABLE evolving (id INT NOT NULL PRIMARY KEY, a VARCHAR(10));
INSERT INTO evolving VALUES (1, 'a1');
ALTER TABLE evolving ADD COLUMN b DECIMAL(6,2) AFTER id;
INSERT INTO evolving VALUES (2, 3.50, 'a2');
ALTER TABLE evolving DROP COLUMN a;
INSERT INTO evolving VALUES (3, 1.00);
RENAME TABLE evolving TO evolved;
INSERT INTO evolved VALUES (4, 2.25);
CREATE INDEX idx_b ON evolved (b);
INSERT INTO evolved VALUES (5, -0.5);
TRUNCATE TABLE evolved;
INSERT INTO evolved VALUES (6, 99.99);
UPDATE evolved SET b = NULL WHERE id = 6;
DROP TABLE evolved;
