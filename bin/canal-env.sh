# Helpers sourced by the scripts of bin/ (not run on its own): which java to run, whether it is recent enough,
# and whether a PID names the canal server of this installation.

# The server's main class; its command line also names this installation's conf/logback.xml.
CANAL_MAIN_CLASS=dev.canal.deployer.CanalLauncher
CANAL_MIN_JAVA=17

# The JIT's options. An inlining limit for hot callees of 100 bytecodes (the JVM's own default is 325), and the
# optimizing compiler (tier 4) taking a method after three times the calls and loops it waits for by default: in a
# catch-up the compiler then spends about half the CPU it would with the defaults, and the code runs about as fast
# once compiled (docs/performance.md, "The JIT's options"). bin/startup.sh and the benchmark's server JVMs both
# take them from here.
CANAL_JIT_OPTS="-XX:FreqInlineSize=100 -XX:Tier4InvocationThreshold=15000 -XX:Tier4CompileThreshold=45000 \
-XX:Tier4BackEdgeThreshold=120000"

# Prints the java binary to run: $JAVA, else $JAVA_HOME/bin/java, else java on the PATH.
canal_java() {
    if [ -n "${JAVA:-}" ]; then
        echo "$JAVA"
    elif [ -n "${JAVA_HOME:-}" ]; then
        if [ ! -x "$JAVA_HOME/bin/java" ]; then
            echo "JAVA_HOME is $JAVA_HOME, but $JAVA_HOME/bin/java is not an executable" >&2
            return 1
        fi
        echo "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        command -v java
    else
        echo "no java found: install Java $CANAL_MIN_JAVA or newer, or set JAVA_HOME" >&2
        return 1
    fi
}

# Fails with a message naming the binary and its version unless it is Java 17 or newer.
canal_require_java() {
    local java=$1 banner version major
    if ! banner=$("$java" -version 2>&1); then
        echo "cannot run $java -version:" >&2
        echo "$banner" >&2
        return 1
    fi
    version=$(printf '%s\n' "$banner" | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -n 1)
    case $version in
        1.*) major=$(echo "$version" | cut -d. -f2) ;;  # 1.8.0_402 is Java 8
        *) major=${version%%[.+-]*} ;;
    esac
    if ! [ "$major" -ge "$CANAL_MIN_JAVA" ] 2>/dev/null; then
        echo "canal needs Java $CANAL_MIN_JAVA or newer, but $java is version ${version:-unknown};" \
            "set JAVA_HOME to a Java $CANAL_MIN_JAVA+ installation" >&2
        return 1
    fi
}

# Succeeds when the PID runs the canal server of the installation in $2: its command line names our main class
# and that installation's logback.xml. A PID file left behind names some other process after a reboot.
canal_pid_is_ours() {
    local pid=$1 home=$2 cmdline
    case $pid in
        '' | *[!0-9]*) return 1 ;;
    esac
    kill -0 "$pid" 2>/dev/null || return 1
    if [ -r "/proc/$pid/cmdline" ]; then
        cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline")
    else
        cmdline=$(ps -o args= -p "$pid" 2>/dev/null) || return 1
    fi
    case $cmdline in
        *"-Dlogback.configurationFile=$home/conf/logback.xml "*"$CANAL_MAIN_CLASS"*) return 0 ;;
        *) return 1 ;;
    esac
}
