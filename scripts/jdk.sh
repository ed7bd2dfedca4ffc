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
