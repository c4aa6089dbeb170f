// gomodzip writes a Go module's proxy files for one version, as a module proxy serves them
// (https://go.dev/ref/mod#goproxy-protocol): <module>/@v/<version>.zip made by golang.org/x/mod/zip
// (the go command's own rules for what a module zip holds), .mod, .info and the list.
//
//	gomodzip <module-dir> <module-path> <version> <proxy-dir> [time RFC 3339]
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: gomodzip <module-dir> <module-path> <version> <proxy-dir> [time]")
		os.Exit(2)
	}
	dir, path, version, proxy := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	when := time.Unix(0, 0).UTC()
	if len(os.Args) > 5 {
		parsed, err := time.Parse(time.RFC3339, os.Args[5])
		check(err, "the time must be RFC 3339")
		when = parsed.UTC()
	}
	mv := module.Version{Path: path, Version: version}
	check(module.Check(path, version), "not a valid module path and version")
	escaped, err := module.EscapePath(path)
	check(err, "the module path cannot be escaped")
	at := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	check(os.MkdirAll(at, 0o755), "cannot make the proxy folder")

	out, err := os.Create(filepath.Join(at, version+".zip"))
	check(err, "cannot write the zip")
	check(zip.CreateFromDir(out, mv, dir), "the module folder does not make a module zip")
	check(out.Close(), "cannot write the zip")

	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	check(err, "the module has no go.mod")
	check(os.WriteFile(filepath.Join(at, version+".mod"), mod, 0o644), "cannot write the .mod")
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": when.Format(time.RFC3339)})
	check(os.WriteFile(filepath.Join(at, version+".info"), info, 0o644), "cannot write the .info")
	check(os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644), "cannot write the list")
}

func check(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %s: %v\n", what, err)
		os.Exit(1)
	}
}
