// Command sdkgen writes the Python and Go SDKs of the restcloud package from schema.json, with
// Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen/python and codegen/go), as
// `pulumi package gen-sdk` would; that command is not in the CLI this repository can build here.
//
//	sdkgen -schema schema.json -out sdk [-lang python,go]
//
// It writes <out>/python and <out>/go, each anew (files the schema no longer gives are removed).
// The languages' settings (the Python package's name and dependencies, the Go import path) come from
// schema.json's `language` section; the version is schema.json's own.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-restcloud sdkgen"

// runnerSource is package runner (runner/runner.go), shipped in the Go module beside the generated
// package: a program's `main` for a Pulumi CLI with or without the Go language host.
//
//go:embed runner/runner.go
var runnerSource []byte

// noDependencies is the schema loader: the restcloud schema references no other package, so any
// request to load one is an error in the schema.
type noDependencies struct{}

func (noDependencies) refuse(name string) error {
	return fmt.Errorf("schema.json references package %q; the restcloud schema should reference no other package", name)
}

func (l noDependencies) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(pkg)
}

func (l noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(d.Name)
}

func (l noDependencies) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(pkg)
}

func (l noDependencies) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.refuse(d.Name)
}

// goSettings is the part of schema.json's language.go section that this program reads itself
// (the codegen reads the rest): the Pulumi Go SDK the generated module requires.
type goSettings struct {
	ImportBasePath     string `json:"importBasePath"`
	PulumiSDKVersion   string `json:"x-pulumiSdkRequire"`
	GoVersionDirective string `json:"x-goDirective"`
}

func bind(schemaPath string) (*schema.Package, *schema.PackageSpec, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{})
	if err != nil {
		return nil, nil, err
	}
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("%s does not bind: %s", schemaPath, diags.Error())
	}
	return pkg, &spec, nil
}

// generatePython writes the package and its pyproject.toml, and the README.md that pyproject.toml
// names (the generator leaves it to the provider), from language.python.readme.
func generatePython(pkg *schema.Package, spec *schema.PackageSpec) (map[string][]byte, error) {
	files, err := pygen.GeneratePackage(tool, pkg, nil, noDependencies{})
	if err != nil {
		return nil, err
	}
	var settings struct {
		Readme string `json:"readme"`
	}
	if err := json.Unmarshal(spec.Language["python"], &settings); err != nil {
		return nil, fmt.Errorf("schema.json language.python: %w", err)
	}
	if settings.Readme == "" {
		return nil, errors.New("schema.json language.python needs a readme")
	}
	files["README.md"] = []byte(settings.Readme + "\n")
	return files, nil
}

// generateGo writes the package under the import path's last element, and the module's go.mod,
// which Pulumi's Go generator leaves to the provider (pulumi-aws writes its own too).
func generateGo(pkg *schema.Package, spec *schema.PackageSpec) (map[string][]byte, error) {
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return nil, err
	}
	var settings goSettings
	if err := json.Unmarshal(spec.Language["go"], &settings); err != nil {
		return nil, fmt.Errorf("schema.json language.go: %w", err)
	}
	if settings.ImportBasePath == "" || settings.PulumiSDKVersion == "" || settings.GoVersionDirective == "" {
		return nil, errors.New("schema.json language.go needs importBasePath, x-pulumiSdkRequire and x-goDirective")
	}
	module := settings.ImportBasePath[:strings.LastIndex(settings.ImportBasePath, "/")]
	files["runner/runner.go"] = runnerSource
	// The Go language host (v3.62.0 and others) reads the plugin's name, version and download URL
	// from pulumi-plugin.json at the module's root (or go/, go/*), not in the package's folder.
	pkgName := settings.ImportBasePath[strings.LastIndex(settings.ImportBasePath, "/")+1:]
	manifest, ok := files[pkgName+"/pulumi-plugin.json"]
	if !ok {
		return nil, fmt.Errorf("the Go generator wrote no %s/pulumi-plugin.json", pkgName)
	}
	files["pulumi-plugin.json"] = manifest
	files["go.mod"] = []byte(fmt.Sprintf(
		"module %s\n\ngo %s\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n",
		module, settings.GoVersionDirective, settings.PulumiSDKVersion))
	return files, nil
}

// writeTree replaces dir with exactly files.
func writeTree(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	schemaPath := flag.String("schema", "schema.json", "the package schema")
	out := flag.String("out", "sdk", "the directory that receives python/ and go/")
	langs := flag.String("lang", "python,go", "the languages to generate")
	flag.Parse()

	pkg, spec, err := bind(*schemaPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
	for _, lang := range strings.Split(*langs, ",") {
		var files map[string][]byte
		switch lang {
		case "python":
			files, err = generatePython(pkg, spec)
		case "go":
			files, err = generateGo(pkg, spec)
		default:
			err = fmt.Errorf("unknown language %q (python, go)", lang)
		}
		if err == nil {
			err = writeTree(filepath.Join(*out, lang), files)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "sdkgen: %s: %v\n", lang, err)
			os.Exit(1)
		}
		fmt.Printf("sdkgen: wrote %d files to %s\n", len(files), filepath.Join(*out, lang))
	}
}
