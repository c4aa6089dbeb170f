// Command sdk-gen generates the Java and .NET SDKs of a Pulumi package schema with those
// languages' own code generators: pulumi-java's `codegen/java` and pulumi-dotnet's `codegen`, the
// ones `pulumi package gen-sdk` runs through the Java and .NET language hosts. It writes each SDK
// into its folder (emptied first): what `npm run derive:sdk` commits as sdk/java and sdk/dotnet.
//
//	sdk-gen <schema.json> <logo-file> <java-folder> <dotnet-folder>
//
// The Java SDK gets a Maven pom.xml made from the schema's `language.java` section (groupId: its
// basePackage; artifactId: the package name; every `dependencies` entry) and the plugin.json
// resource, in place of the Gradle files the generator would write (and the file their build makes). The .NET generator downloads the schema's logoUrl into the
// package; here nothing reaches the network: every HTTP request is answered from <logo-file> when
// it asks for logoUrl, and refused otherwise.
//
// A module of its own, apart from tools/schema-check: the .NET generator v3.101.2 imports a package
// of github.com/pulumi/pulumi/sdk/v3 that the version schema-check builds on (v3.259.0) no longer
// has; here the Pulumi modules stay at the version the two generators require (v3.223.0). What the
// two tools share (reading, binding, writing) is tools/pkgschema, a module each requires through a
// `replace` to its folder, so each builds it with its own Pulumi version.
package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"

	"github.com/pulumi-clouddb/tools/pkgschema"
	dotnet "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen"
	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

// localLogo answers the logo's URL with the logo file's bytes and refuses every other request.
type localLogo struct {
	url  string
	logo []byte
}

func (l localLogo) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.String() != l.url {
		return nil, fmt.Errorf("sdk-gen reaches no network: %s is not the schema's logoUrl", req.URL)
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(l.logo)), ContentLength: int64(len(l.logo)),
		Request: req,
	}, nil
}

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: sdk-gen <schema.json> <logo-file> <java-folder> <dotnet-folder>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2], os.Args[3], os.Args[4]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func generate(path, logoFile, javaDir, dotnetDir string) error {
	spec, err := pkgschema.ReadSpec(path)
	if err != nil {
		return err
	}
	logo, err := os.ReadFile(logoFile)
	if err != nil {
		return fmt.Errorf("cannot read the logo the .NET package carries: %w", err)
	}
	client := &http.Client{Transport: localLogo{url: spec.LogoURL, logo: logo}}
	http.DefaultClient = client
	http.DefaultTransport = client.Transport

	javaFiles, err := java(spec, path)
	if err != nil {
		return err
	}
	pkg, err := pkgschema.Bind(spec, path)
	if err != nil {
		return err
	}
	dotnetFiles, err := dotnet.GeneratePackage("sdk-gen", pkg, nil, nil)
	if err != nil {
		return fmt.Errorf("the .NET SDK cannot be generated from %s: %w", path, err)
	}
	if err := pkgschema.Write(javaDir, javaFiles); err != nil {
		return err
	}
	return pkgschema.Write(dotnetDir, dotnetFiles)
}

// java generates the Java sources as pulumi-language-java does (types deduplicated first), without
// build files, and adds the pom.xml.
func java(spec schema.PackageSpec, path string) (map[string][]byte, error) {
	deduped, diags, err := javagen.DeduplicateTypes(&spec)
	pkgschema.Report(diags)
	if err != nil || diags.HasErrors() {
		return nil, fmt.Errorf("the Java types of %s cannot be deduplicated: %v", path, err)
	}
	pkg, err := pkgschema.Bind(*deduped, path)
	if err != nil {
		return nil, err
	}
	if err := pkg.ImportLanguages(map[string]schema.Language{"java": javagen.Importer}); err != nil {
		return nil, fmt.Errorf("%s has an invalid java language section: %w", path, err)
	}
	info, _ := pkg.Language["java"].(javagen.PackageInfo)
	files, err := javagen.GeneratePackage("sdk-gen", pkg, nil, nil, false, true)
	if err != nil {
		return nil, fmt.Errorf("the Java SDK cannot be generated from %s: %w", path, err)
	}
	pom, err := pomXML(pkg, info)
	if err != nil {
		return nil, err
	}
	files["pom.xml"] = pom
	// What the generator's Gradle build would write next to version.txt: the Java host reads it
	// from the classpath to tell the engine which plugin the program needs, and from where.
	pluginJSON, err := (&plugin.PulumiPluginJSON{
		Resource: true, Name: pkg.Name, Version: pkg.Version.String(), Server: pkg.PluginDownloadURL,
	}).JSON()
	if err != nil {
		return nil, err
	}
	resources := "src/main/resources/" + strings.ReplaceAll(info.BasePackageOrDefault()+pkg.Name, ".", "/")
	files[resources+"/plugin.json"] = pluginJSON
	return files, nil
}

type dependency struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
}

type license struct {
	Name string `xml:"name"`
	URL  string `xml:"url,omitempty"`
}

type property struct {
	XMLName xml.Name
	Value   string `xml:",chardata"`
}

type pom struct {
	XMLName      xml.Name     `xml:"project"`
	Xmlns        string       `xml:"xmlns,attr"`
	Xsi          string       `xml:"xmlns:xsi,attr"`
	Schema       string       `xml:"xsi:schemaLocation,attr"`
	ModelVersion string       `xml:"modelVersion"`
	GroupID      string       `xml:"groupId"`
	ArtifactID   string       `xml:"artifactId"`
	Version      string       `xml:"version"`
	Packaging    string       `xml:"packaging"`
	Name         string       `xml:"name"`
	Description  string       `xml:"description,omitempty"`
	URL          string       `xml:"url,omitempty"`
	Licenses     []license    `xml:"licenses>license,omitempty"`
	Properties   []property   `xml:"properties>any"`
	Dependencies []dependency `xml:"dependencies>dependency"`
}

// pomXML describes the SDK as a Maven jar: groupId the java section's basePackage, artifactId the
// package name, version the schema's, and the section's dependencies (com.pulumi:pulumi among them).
func pomXML(pkg *schema.Package, info javagen.PackageInfo) ([]byte, error) {
	if info.BasePackage == "" {
		return nil, errors.New("the schema's language.java section needs a basePackage: it is the Maven groupId")
	}
	if _, ok := info.Dependencies["com.pulumi:pulumi"]; !ok {
		return nil, errors.New(`the schema's language.java.dependencies needs "com.pulumi:pulumi": the Java SDK's version`)
	}
	if pkg.Version == nil {
		return nil, errors.New("the schema has no version: it is the Maven version")
	}
	p := pom{
		Xmlns:        "http://maven.apache.org/POM/4.0.0",
		Xsi:          "http://www.w3.org/2001/XMLSchema-instance",
		Schema:       "http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd",
		ModelVersion: "4.0.0",
		GroupID:      info.BasePackage,
		ArtifactID:   pkg.Name,
		Version:      pkg.Version.String(),
		Packaging:    "jar",
		Name:         pkg.Name,
		Description:  pkg.Description,
		URL:          pkg.Homepage,
		Properties: []property{
			// Java 11, the Java SDK's own; source and target, which every maven-compiler-plugin reads.
			{XMLName: xml.Name{Local: "maven.compiler.source"}, Value: "11"},
			{XMLName: xml.Name{Local: "maven.compiler.target"}, Value: "11"},
			{XMLName: xml.Name{Local: "project.build.sourceEncoding"}, Value: "UTF-8"},
		},
	}
	if pkg.License != "" {
		p.Licenses = []license{{Name: pkg.License}}
		if pkg.License == "Apache-2.0" {
			p.Licenses[0].URL = "https://www.apache.org/licenses/LICENSE-2.0.txt"
		}
	}
	names := make([]string, 0, len(info.Dependencies))
	for name := range info.Dependencies {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		group, artifact, ok := strings.Cut(name, ":")
		if !ok {
			return nil, fmt.Errorf("language.java.dependencies: %q is not groupId:artifactId", name)
		}
		p.Dependencies = append(p.Dependencies, dependency{group, artifact, info.Dependencies[name]})
	}
	text, err := xml.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(text, '\n')...), nil
}
