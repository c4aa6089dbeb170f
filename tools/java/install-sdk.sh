#!/usr/bin/env bash
# Builds the generated Java SDK (sdk/java) with Maven and installs its jar and pom into the local
# Maven repository, once per version of its sources; prints that repository's folder. Java programs
# (examples/preview-environment-java) resolve the SDK from there, like any Maven dependency.
#
#   tools/java/install-sdk.sh              -> prints the repository folder (builds when the SDK changed)
#   MAVEN_REPO=/some/dir ...               -> which local repository (default ~/.m2/repository)
#
# The first run fetches com.pulumi:pulumi and Maven's own plugins from Maven Central into that
# repository; every later build runs offline (`mvn -o`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sdk="$here/../../sdk/java"
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
log() { echo "[java-sdk] $*" >&2; }
command -v mvn >/dev/null || { log "Maven is needed to build the Java SDK (apt-get install maven)"; exit 1; }

# The pom's own coordinates: the first groupId, artifactId and version, before its dependencies.
coordinate() { sed -n "s#^  <$1>\(.*\)</$1>#\1#p" "$sdk/pom.xml" | head -1; }
group="$(coordinate groupId)" artifact="$(coordinate artifactId)" version="$(coordinate version)"
[[ -n "$group" && -n "$artifact" && -n "$version" ]] || { log "sdk/java/pom.xml names no groupId, artifactId or version"; exit 1; }
installed="$repo/${group//.//}/$artifact/$version"
sources="$(cd "$sdk" && find . -type f ! -path './target/*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"

if [[ "$(cat "$installed/.sources" 2>/dev/null)" != "$sources" || ! -f "$installed/$artifact-$version.jar" ]]; then
  # Built from a copy: Maven writes target/ next to the pom.
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cp -r "$sdk/." "$work"
  maven=(mvn -B -ntp -q -Dmaven.repo.local="$repo" -f "$work/pom.xml" install)
  start=$SECONDS
  if ! "${maven[@]}" -o >"$work/offline.log" 2>&1; then
    log "building $group:$artifact:$version online (first time: Maven fetches com.pulumi:pulumi and its plugins)"
    "${maven[@]}" >&2 || { log "mvn install of sdk/java failed (its output is above)"; exit 1; }
  fi
  echo "$sources" >"$installed/.sources"
  log "$group:$artifact:$version installed into $repo in $((SECONDS - start)) s"
fi
echo "$repo"
