# Sourced by the scripts: exports JAVA_HOME pointing at a JDK 21+ and quiet Maven options.
java_major() {
  local v
  v="$("$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
  echo "${v:-0}"
}
find_jdk() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-2[1-9]* /usr/lib/jvm/java-2[1-9]* /usr/lib/jvm/*2[1-9]* \
           /usr/lib/jvm/* /opt/java/* /usr/local/java/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    if [ "$(java_major "$c/bin/java")" -ge 21 ]; then echo "$c"; return 0; fi
  done
  if command -v javac >/dev/null 2>&1; then
    c="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    if [ "$(java_major "$c/bin/java")" -ge 21 ]; then echo "$c"; return 0; fi
  fi
  return 1
}

# Maven's JVM options for the JDK at $1: quiet about sun.misc.Unsafe where the JDK knows the flag (23+; a JDK 21
# or 22 refuses to start with it).
maven_opts() {
  if [ "$(java_major "$1/bin/java")" -ge 23 ]; then
    echo "${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  else
    echo "${MAVEN_OPTS:-}"
  fi
}

# Installing with apt as root, or through sudo: sets sudo_cmd, or says why not (naming the caller, $1) and fails.
apt_ready() {
  sudo_cmd=""
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$1: no apt-get here: install $2 by hand" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "$1: not root and no sudo: install $2 by hand" >&2
      return 1
    fi
    sudo_cmd="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ "${apt_updated:-0}" = 0 ]; then
    echo "$1: updating the apt package lists" >&2
    $sudo_cmd apt-get update -qq || return 1
    apt_updated=1
  fi
}

# A JDK 21+ when none is found (find_jdk): Debian's openjdk-25 or -21 package where the release has one (Debian 12
# packages only JDK 17: there a JDK 21+ must already be under /usr/lib/jvm or JAVA_HOME). Says what it installs on
# stderr, naming the caller ($1); returns at once when a JDK 21+ is there.
ensure_jdk() {
  find_jdk >/dev/null && return 0
  echo "$1: no JDK 21 or newer found: installing one" >&2
  apt_ready "$1" "a JDK 21 or newer" || return 1
  local p
  for p in openjdk-25-jdk-headless openjdk-21-jdk-headless; do
    if apt-cache show "$p" >/dev/null 2>&1; then
      echo "$1: installing $p" >&2
      $sudo_cmd apt-get install -y -qq "$p" >/dev/null && break
    fi
  done
  if ! find_jdk >/dev/null; then
    echo "$1: could not install a JDK 21 or newer (this Debian release packages none; set JAVA_HOME to one)" >&2
    return 1
  fi
  echo "$1: JDK at $(find_jdk)" >&2
}

# Maven when it is missing, by apt (saying so on stderr, naming the caller, $1).
ensure_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  echo "$1: no Maven found: installing maven" >&2
  apt_ready "$1" "Maven" || return 1
  $sudo_cmd apt-get install -y -qq maven >/dev/null || { echo "$1: could not install maven" >&2; return 1; }
}
