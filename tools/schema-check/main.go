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
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noReferences is the loader for a schema that refers to no other package: binding asks it only
// when a type names another package, which is then an error worth reporting.
type noReferences struct{}

func (noReferences) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q: it must be self-contained", pkg)
}

func (l noReferences) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noReferences) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noReferences) LoadPackageReferenceV2(
	ctx context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	_, err := l.LoadPackageV2(ctx, d)
	return nil, err
}

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
	text, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("cannot read the schema: %w", err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s is not a package schema: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{})
	report(diags)
	if err != nil {
		return fmt.Errorf("%s could not be bound: %w", path, err)
	}
	if diags.HasErrors() {
		return errors.New(path + " is not a valid package schema (errors above)")
	}
	languages := map[string]schema.Language{"python": python.Importer, "go": gogen.Importer}
	if err := pkg.ImportLanguages(languages); err != nil {
		return fmt.Errorf("%s has an invalid language section: %w", path, err)
	}
	pythonFiles, err := python.GeneratePackage("schema-check", pkg, nil, noReferences{})
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
	if err := write(out[0], pythonFiles); err != nil {
		return err
	}
	return write(out[1], goFiles)
}

// write empties dir and writes files into it, as the generator made them.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("cannot empty %s: %w", dir, err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return fmt.Errorf("cannot make the folder of %s: %w", file, err)
		}
		if err := os.WriteFile(file, files[name], 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %w", file, err)
		}
	}
	fmt.Printf("wrote %d files into %s\n", len(names), dir)
	return nil
}

func report(diags hcl.Diagnostics) {
	for _, d := range diags {
		severity := "warning"
		if d.Severity == hcl.DiagError {
			severity = "error"
		}
		where := ""
		if d.Subject != nil {
			where = d.Subject.Filename + ": "
		}
		detail := ""
		if d.Detail != "" {
			detail = " (" + d.Detail + ")"
		}
		fmt.Fprintf(os.Stderr, "%s: %s%s%s\n", severity, where, d.Summary, detail)
	}
}
