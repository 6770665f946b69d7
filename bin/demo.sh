#!/usr/bin/env bash
# A demo for someone with no MySQL at hand: starts a private MariaDB with binlog on, starts this server against
# it, writes a few rows every second, and prints the changes as a Canal client receives them.
# Ctrl-C stops everything it started and removes its temporary files.
#
#   bin/demo.sh [--changes N]
#
# From an unpacked tarball it runs that tarball's server. From the repository it runs the tarball the build made
# (canal-deployer/target), building it first only when there is none or a source is newer than it; the build is
# `mvn $MAVEN_ARGS -pl canal-deployer -am package -DskipTests`, so MAVEN_ARGS, MAVEN_OPTS and ~/.m2/settings.xml
# apply. With --changes N it stops everything after printing N row changes.
set -euo pipefail

home=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=canal-env.sh
. "$home/bin/canal-env.sh"
changes=""
case "${1:-}" in
    --changes) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--changes N]" >&2; exit 2; }; changes=$2 ;;
    "") ;;
    *) echo "usage: $0 [--changes N]" >&2; exit 2 ;;
esac
java=$(canal_java) || exit 1
canal_require_java "$java" || exit 1
work=$(mktemp -d /tmp/canal-demo.XXXXXX)
db_pid=""
writer_pid=""
client_pid=""

cleanup() {
    trap - EXIT INT TERM
    echo
    echo "demo: stopping"
    [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null || true
    [ -n "$writer_pid" ] && kill "$writer_pid" 2>/dev/null || true
    if [ -f "$work/server/bin/canal.pid" ]; then
        "$work/server/bin/stop.sh" >/dev/null 2>&1 || true
    fi
    if [ -n "$db_pid" ]; then
        kill "$db_pid" 2>/dev/null || true
        wait "$db_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

find_program() {
    for dir in ${PATH//:/ } /usr/sbin /usr/local/sbin; do
        [ -x "$dir/$1" ] && { echo "$dir/$1"; return 0; }
    done
    return 1
}

free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 20000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}

# --- 1. a private MariaDB with binlog on ---------------------------------------------------------------
mariadbd=$(find_program mariadbd || true)
if [ -z "$mariadbd" ]; then
    echo "demo: MariaDB is not installed (the demo runs a private one; your system service is not touched)."
    answer=n
    if [ -t 0 ]; then
        read -r -p "Install the mariadb-server package with apt-get now? [y/N] " answer
    fi
    case $answer in
        y|Y|yes) apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server ;;
        *) echo "demo: install it with 'apt-get install -y mariadb-server' and run bin/demo.sh again"; exit 1 ;;
    esac
    mariadbd=$(find_program mariadbd)
fi
install_db=$(find_program mariadb-install-db || find_program mysql_install_db)
client=$(find_program mariadb || find_program mysql)
as_root=()
[ "$(id -u)" = 0 ] && as_root=(--user=root)

db_port=$(free_port)
sock=$work/mysqld.sock
echo "demo: starting a private MariaDB on 127.0.0.1:$db_port (data in $work/db)"
"$install_db" --no-defaults --datadir="$work/db" --auth-root-authentication-method=normal --skip-test-db \
    "${as_root[@]}" >"$work/install-db.log" 2>&1
"$mariadbd" --no-defaults --datadir="$work/db" --port="$db_port" --bind-address=127.0.0.1 --socket="$sock" \
    --log-bin="$work/db/mysql-bin" --server-id=1 --binlog-format=ROW --binlog-row-image=FULL \
    --log-error="$work/mariadb.log" --skip-name-resolve "${as_root[@]}" &
db_pid=$!
sql() { "$client" --no-defaults --socket="$sock" -uroot "$@"; }
for _ in $(seq 1 100); do
    sql -e "select 1" >/dev/null 2>&1 && break
    sleep 0.2
done
sql -e "select 1" >/dev/null
sql <<'SQL'
CREATE USER 'canal'@'%' IDENTIFIED BY 'canal';
GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'canal'@'%';
CREATE DATABASE demo;
CREATE TABLE demo.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer VARCHAR(40), amount DECIMAL(10,2),
    status ENUM('new','paid','shipped'), created DATETIME(3));
SQL

# --- 2. the server, from this tarball or built from the repository -------------------------------------
# The first source file (code, pom, shipped conf or script) modified after the tarball, if any.
source_newer_than() {
    find "$home" \( -name target -o -name .git -o -name examples -o -name logs \) -prune -o -type f \
        \( -path '*/src/main/*' -o -name pom.xml -o -path "$home/bin/*" \
           -o \( -path "$home/conf/*" \( -name '*.properties' -o -name '*.xml' -o -name '*.json' \) \) \) \
        -newer "$1" -print -quit
}

mkdir -p "$work/server"
if [ -d "$home/lib" ]; then
    cp -r "$home/bin" "$home/conf" "$home/lib" "$work/server/"
else
    tarball=$(ls -t "$home"/canal-deployer/target/canal-deployer-*.tar.gz 2>/dev/null | head -n 1 || true)
    reason=""
    if [ -z "$tarball" ]; then
        reason="no tarball in canal-deployer/target yet"
    else
        newer=$(source_newer_than "$tarball")
        [ -n "$newer" ] && reason="${newer#"$home"/} is newer than ${tarball#"$home"/}"
    fi
    if [ -n "$reason" ]; then
        echo "demo: building the server first ($reason): mvn ${MAVEN_ARGS:-}${MAVEN_ARGS:+ }-pl canal-deployer" \
            "-am package -DskipTests; the first build downloads its dependencies and takes a few minutes"
        # shellcheck disable=SC2086 # MAVEN_ARGS is a list of Maven options on purpose
        (cd "$home" && mvn ${MAVEN_ARGS:-} -pl canal-deployer -am package -DskipTests)
        tarball=$(ls -t "$home"/canal-deployer/target/canal-deployer-*.tar.gz | head -n 1)
        echo "demo: built $tarball"
    else
        echo "demo: using ${tarball#"$home"/}, built after the last change to the sources"
    fi
    tar xzf "$tarball" -C "$work/server"
fi
mkdir -p "$work/server/logs"
server_port=$(free_port)
metrics_port=$(free_port)
rm -rf "$work/server/conf/example"
mkdir -p "$work/server/conf/demo"
sed -e "s/^canal.port *=.*/canal.port = $server_port/" \
    -e "s/^canal.metrics.pull.port *=.*/canal.metrics.pull.port = $metrics_port/" \
    -e "s/^canal.destinations *=.*/canal.destinations = demo/" \
    "$home/conf/canal.properties" >"$work/server/conf/canal.properties"
cat >"$work/server/conf/demo/instance.properties" <<PROPS
canal.instance.master.address = 127.0.0.1:$db_port
canal.instance.dbUsername = canal
canal.instance.dbPassword = canal
canal.instance.filter.regex = demo\\\\..*
PROPS
echo "demo: starting the server on port $server_port (logs in $work/server/logs)"
"$work/server/bin/startup.sh" >/dev/null
for _ in $(seq 1 150); do
    (exec 3<>"/dev/tcp/127.0.0.1/$server_port") 2>/dev/null && break
    sleep 0.2
done

# --- 3. a writer: a few changes every second -----------------------------------------------------------
(
    n=0
    while :; do
        n=$((n + 1))
        sql -e "INSERT INTO demo.orders (customer, amount, status, created) VALUES ('customer $n', $n.50, 'new', NOW(3));
                UPDATE demo.orders SET status = 'paid' WHERE id = $n - 1;
                DELETE FROM demo.orders WHERE id = $n - 5;" >/dev/null 2>&1 || true
        sleep 1
    done
) &
writer_pid=$!

# --- 4. a client printing what arrives ------------------------------------------------------------------
echo "demo: changes to demo.orders as a Canal client receives them (Ctrl-C to stop everything)"
# in the background and waited for, so that a signal to this script runs the clean-up at once
"$java" -cp "$work/server/lib/*" dev.canal.deployer.demo.ConsoleClient 127.0.0.1 "$server_port" demo "" \
    ${changes:+"$changes"} &
client_pid=$!
wait "$client_pid"
