#!/usr/bin/env bash
# Writes tests/fixtures/terraform/: a Terraform state of the community `kislerdm/neon` provider and
# the emulator's state it was written against, for `clouddb from-terraform`'s end-to-end test. The
# state is the provider's own: OpenTofu (built here from Go modules) applies main.tf (beside this
# script) with the provider built from its source, against the emulator on loopback.
#
#   tools/terraform-neon/make-fixture.sh <checkout of github.com/kislerdm/terraform-provider-neon>
#
# The provider's module is not on the Go module proxy, so its source is given as a checkout (the
# fixture was made from tag v0.15.0). Its SDK (github.com/kislerdm/neon-sdk-go) keeps the API's URL
# in a constant; the build replaces the SDK with a copy whose client reads NEON_API_URL first, the
# only change. Run `npm run build` first (the emulator runs from emulator/lib).
set -euo pipefail
source_dir=$(cd "${1:?give a checkout of kislerdm/terraform-provider-neon}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/tests/fixtures/terraform"
work=$(mktemp -d)
trap 'kill "${emulator_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
tofu_version=v1.10.10

echo "building OpenTofu $tofu_version from Go modules" >&2
tofu_src=$(go mod download -json "github.com/opentofu/opentofu@$tofu_version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
(cd "$tofu_src" && go build -o "$work/tofu" ./cmd/tofu)

echo "building the provider from $source_dir" >&2
version=$(cd "$source_dir" && git describe --tags --abbrev=0 2>/dev/null || echo v0.0.0)
cp -r "$source_dir" "$work/provider"
sdk=$(cd "$work/provider" && go list -m -f '{{.Path}}@{{.Version}}' github.com/kislerdm/neon-sdk-go)
sdk_dir=$(go mod download -json "$sdk" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
cp -r "$sdk_dir" "$work/sdk" && chmod -R u+w "$work/sdk"
python3 - "$work/sdk/sdk.go" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
s = s.replace('\t"net/http"\n', '\t"net/http"\n\t"os"\n', 1)
s = s.replace("\t\tbaseURL: baseURL,\n", "\t\tbaseURL: apiURL(),\n", 1)
s += '''
// apiURL is the API's base URL: NEON_API_URL when set (a local emulator), else the service's.
func apiURL() string {
\tif u := os.Getenv("NEON_API_URL"); u != "" {
\t\treturn u
\t}
\treturn baseURL
}
'''
open(path, "w").write(s)
PY
(cd "$work/provider" && go mod edit -replace "github.com/kislerdm/neon-sdk-go=$work/sdk" && go build -o "$work/terraform-provider-neon_$version" .)
mirror="$work/mirror/registry.opentofu.org/kislerdm/neon/${version#v}/linux_amd64"
mkdir -p "$mirror" && cp "$work/terraform-provider-neon_$version" "$mirror/"
cat > "$work/tofurc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$work/mirror"
    include = ["registry.opentofu.org/kislerdm/neon"]
  }
}
RC

echo "applying main.tf against the emulator" >&2
node "$root/emulator/lib/cli.js" --state-file "$work/emulator.json" --op-duration-ms 50 --no-limits >"$work/emulator.log" &
emulator_pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/emulator.log" && break; sleep 0.1; done
url=$(sed -n 's/^clouddb-emulator listening on //p' "$work/emulator.log")
key=$(node -e 'console.log(require(process.argv[1]).DEMO.personalKey)' "$root/emulator/lib/index.js")
mkdir -p "$work/config" && sed "s/__VERSION__/${version#v}/" "$root/tools/terraform-neon/main.tf" >"$work/config/main.tf"
(
  cd "$work/config"
  export TF_CLI_CONFIG_FILE="$work/tofurc" NEON_API_KEY="$key" NEON_API_URL="$url" TF_IN_AUTOMATION=1
  "$work/tofu" init -input=false -no-color >&2
  "$work/tofu" apply -input=false -auto-approve -no-color >&2
)
kill "$emulator_pid" && wait "$emulator_pid" 2>/dev/null || true

mkdir -p "$out"
cp "$work/config/terraform.tfstate" "$out/terraform.tfstate"
cp "$work/emulator.json" "$out/emulator-state.json"
echo "wrote $out (provider $version, OpenTofu $tofu_version)" >&2
