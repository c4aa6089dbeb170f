// Package pkgschema is what tools/schema-check and tools/sdk-gen share: reading a Pulumi package
// schema, binding it as Pulumi does before it generates an SDK (its diagnostics printed), and
// writing the files a generator made into a folder. Each tool requires it through a `replace` to
// this folder, so each keeps the Pulumi version its generators need.
package pkgschema

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
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// NoReferences is the loader for a schema that refers to no other package: binding asks it only
// when a type names another package, which is then an error worth reporting.
type NoReferences struct{}

func (NoReferences) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q: it must be self-contained", pkg)
}

func (l NoReferences) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l NoReferences) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l NoReferences) LoadPackageReferenceV2(
	ctx context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	_, err := l.LoadPackageV2(ctx, d)
	return nil, err
}

// ReadSpec reads the package schema in the file at path.
func ReadSpec(path string) (schema.PackageSpec, error) {
	var spec schema.PackageSpec
	text, err := os.ReadFile(path)
	if err != nil {
		return spec, fmt.Errorf("cannot read the schema: %w", err)
	}
	if err := json.Unmarshal(text, &spec); err != nil {
		return spec, fmt.Errorf("%s is not a package schema: %w", path, err)
	}
	return spec, nil
}

// Bind binds spec (read from path) as Pulumi does before it generates an SDK, printing each
// diagnostic; an error diagnostic fails it.
func Bind(spec schema.PackageSpec, path string) (*schema.Package, error) {
	pkg, diags, err := schema.BindSpec(spec, NoReferences{}, schema.ValidationOptions{})
	Report(diags)
	if err != nil {
		return nil, fmt.Errorf("%s could not be bound: %w", path, err)
	}
	if diags.HasErrors() {
		return nil, errors.New(path + " is not a valid package schema (errors above)")
	}
	return pkg, nil
}

// Report prints each diagnostic on stderr as `error|warning: <where>: <message> (<detail>)`, where
// is the JSON pointer of the schema's part it is about, when it says.
func Report(diags hcl.Diagnostics) {
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

// Write empties dir and writes files into it, as the generator made them.
func Write(dir string, files map[string][]byte) error {
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
