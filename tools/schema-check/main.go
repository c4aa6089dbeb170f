// Command schema-check validates a Pulumi package schema the way Pulumi itself does before it
// generates SDKs: against the package metaschema, then by binding every type, resource, function
// and config entry, then by reading the Python and Go language sections; then it generates the
// Python and Go SDKs in memory with Pulumi's own generators (writing nothing). It prints each
// diagnostic as `error|warning: <JSON pointer>: <message>` and exits 1 when any is an error.
// Given folders, it also writes the SDKs there (each folder emptied first): what `npm run
// derive:sdk` commits as sdk/python and sdk/go.
//
//	schema-check schema.json
//	schema-check schema.json <python-folder> <go-folder>
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi-clouddb/tools/pkgschema"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 2 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: schema-check <schema.json> [<python-folder> <go-folder>]")
		os.Exit(2)
	}
	if err := check(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func check(path string, out []string) error {
	spec, err := pkgschema.ReadSpec(path)
	if err != nil {
		return err
	}
	pkg, err := pkgschema.Bind(spec, path)
	if err != nil {
		return err
	}
	languages := map[string]schema.Language{"python": python.Importer, "go": gogen.Importer}
	if err := pkg.ImportLanguages(languages); err != nil {
		return fmt.Errorf("%s has an invalid language section: %w", path, err)
	}
	pythonFiles, err := python.GeneratePackage("schema-check", pkg, nil, pkgschema.NoReferences{})
	if err != nil {
		return fmt.Errorf("the Python SDK cannot be generated from %s: %w", path, err)
	}
	goFiles, err := gogen.GeneratePackage("schema-check", pkg, nil)
	if err != nil {
		return fmt.Errorf("the Go SDK cannot be generated from %s: %w", path, err)
	}
	fmt.Printf("%s: package %s binds with %d resources, %d functions, %d config entries; "+
		"generates %d Python and %d Go files\n",
		path, pkg.Name, len(pkg.Resources), len(pkg.Functions), len(pkg.Config), len(pythonFiles), len(goFiles))
	if len(out) == 0 {
		return nil
	}
	// pyproject.toml names README.md next to it; the generator writes the README into the package only.
	for name, text := range pythonFiles {
		if filepath.Base(name) == "README.md" && filepath.Dir(name) != "." {
			pythonFiles["README.md"] = text
		}
	}
	if err := pkgschema.Write(out[0], pythonFiles); err != nil {
		return err
	}
	return pkgschema.Write(out[1], goFiles)
}
