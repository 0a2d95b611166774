// Package runner gives a Pulumi Go program a `main` that works with and without a Go language host.
// It is no part of Pulumi's generated SDK: pulumi-restcloud's SDK generator (tools/sdkgen) ships it
// beside the generated package.
//
// Launched by the engine (`pulumi up`, through the Go language host pulumi-language-go, which the
// official distribution ships and pulumi-restcloud's scripts/install-pulumi-cli.sh builds), Main
// hands the program to pulumi.Run. Run by hand (`go run . up`), it runs the same program on the
// same stack through the Automation API, which serves it from this process and needs no language
// host: the second route, for a Pulumi CLI without one.
//
//	func main() { runner.Main(program) }
//
//	go run . up|preview|refresh|destroy [-stack NAME] [-expect-no-changes]
//
// The project is the current directory's (Pulumi.yaml: its plugins.providers and config
// defaults), the stack's config its Pulumi.<stack>.yaml (`pulumi config set` writes it), the backend
// and passphrase those of the environment (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE). `up`
// prints the stack's outputs as one line of JSON last, secrets masked.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const usage = `usage: go run . up|preview|refresh|destroy [-stack NAME] [-expect-no-changes]

Runs the operation on the stack (default "dev") of this directory's project, with the Pulumi CLI on
PATH, the backend and passphrase of the environment (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE),
and the stack's config (pulumi config set ... in this directory). up prints the outputs as JSON last.
`

// Main runs program: under the engine when it launched this process, else by the command line's
// operation through the Automation API. It exits with 1 when the operation fails, 2 on bad usage.
func Main(program pulumi.RunFunc) {
	if os.Getenv(pulumi.EnvMonitor) != "" {
		pulumi.Run(program)
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	command := os.Args[1]
	flags := flag.NewFlagSet(command, flag.ExitOnError)
	stackName := flags.String("stack", "dev", "the stack to operate on (created if absent)")
	expectNoChanges := flags.Bool("expect-no-changes", false, "preview: fail if the preview finds a change")
	_ = flags.Parse(os.Args[2:])

	if err := run(context.Background(), program, command, *stackName, *expectNoChanges); err != nil {
		// The CLI's own messages went to stderr as they came; the Automation API's error repeats
		// them after its first line.
		fmt.Fprintf(os.Stderr, "%s: %s\n", command, strings.SplitN(err.Error(), "\n", 2)[0])
		os.Exit(1)
	}
}

func run(ctx context.Context, program pulumi.RunFunc, command, stackName string, expectNoChanges bool) error {
	if _, err := os.Stat("Pulumi.yaml"); err != nil {
		return errors.New("no Pulumi.yaml here: run it in the project's directory")
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "", program, auto.WorkDir("."))
	if err != nil {
		return err
	}
	switch command {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stdout), optup.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		return printOutputs(result.Outputs)
	case "preview":
		options := []optpreview.Option{
			optpreview.ProgressStreams(os.Stdout),
			optpreview.ErrorProgressStreams(os.Stderr),
			optpreview.Diff(),
		}
		if expectNoChanges {
			options = append(options, optpreview.ExpectNoChanges())
		}
		_, err = stack.Preview(ctx, options...)
	case "refresh":
		_, err = stack.Refresh(ctx, optrefresh.ProgressStreams(os.Stdout), optrefresh.ErrorProgressStreams(os.Stderr))
	case "destroy":
		_, err = stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout), optdestroy.ErrorProgressStreams(os.Stderr))
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	return err
}

// printOutputs prints the stack's outputs as one line of JSON, secrets masked as `pulumi stack
// output` does.
func printOutputs(outputs auto.OutputMap) error {
	plain := make(map[string]any, len(outputs))
	for name, output := range outputs {
		if output.Secret {
			plain[name] = "[secret]"
		} else {
			plain[name] = output.Value
		}
	}
	text, err := json.Marshal(plain)
	if err != nil {
		return err
	}
	fmt.Println(string(text))
	return nil
}
