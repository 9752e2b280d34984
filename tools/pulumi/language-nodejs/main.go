// Command pulumi-language-nodejs is this project's Node.js language host for the Pulumi engine.
//
// Why it exists: the upstream host lives in its own Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3), which the Go module proxy
// reachable from this project refuses for every version, and no release archives can be
// downloaded. The CLI, the engine, the Kubernetes provider and the Node.js SDK (@pulumi/pulumi,
// whose cmd/run entry point actually executes the program) are all the real, published ones;
// only the thin process that the engine asks to start the program is ours. It is written against
// the published language-runtime protocol (sdk/v3/proto/go) and keeps to what `pulumi preview`,
// `up`, `refresh`, `destroy`, `stack` and the Automation API need:
//
//   - Handshake, GetPluginInfo, Cancel, About, GetProgramDependencies;
//   - GetRequiredPackages / GetRequiredPlugins: the resource-provider packages (package.json with
//     "pulumi": {"resource": true}) reachable from the program's package.json dependencies;
//   - Run: `node [nodeargs] <@pulumi/pulumi/cmd/run> --monitor … <entry point>` in the program
//     directory, with PULUMI_CONFIG, PULUMI_CONFIG_SECRET_KEYS and the TypeScript switches in the
//     environment, as @pulumi/pulumi's run script expects them.
//
// Left out (they answer "unimplemented"): InstallDependencies (`pulumi install`: run npm
// yourself), code generation (`pulumi convert`, `pulumi package gen-sdk`, `pulumi new`
// templates), RunPlugin (component or policy packs written in Node), the debugger, and the
// synchronous-invoke pipes (`--sync`), which only the deprecated `invokeSync` API uses.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The run script shipped in @pulumi/pulumi; PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides it.
const runModule = "@pulumi/pulumi/cmd/run"

// Exit code with which @pulumi/pulumi's run script says "the error was already shown to the user".
const exitAfterUserMessage = 32

func main() {
	tracing := flag.String("tracing", "", "tracing endpoint, passed on to the Node.js runtime")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.String("runtime", "nodejs", "accepted for compatibility; only nodejs is supported")
	flag.Parse()
	if *showVersion {
		fmt.Println(version.Version)
		return
	}
	logging.InitLogging(false, 0, false)

	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[len(args)-1]
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cancelServer := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancelServer)
	}()

	// Exit when the engine goes away, so that no host outlives its `pulumi` process.
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, stop); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start the engine health check: %w", err))
		}
	}

	host := newHost(engineAddress, *tracing)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelServer,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start the language host server: %w", err))
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host server stopped: %w", err))
	}
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
	cancel        context.Context
	cancelFunc    context.CancelFunc
}

func newHost(engineAddress, tracing string) *host {
	ctx, cancel := context.WithCancel(context.Background())
	return &host{engineAddress: engineAddress, tracing: tracing, cancel: ctx, cancelFunc: cancel}
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	h.engineAddress = req.GetEngineAddress()
	h.mu.Unlock()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// Cancel stops a running program: the Node.js process gets SIGINT (then SIGKILL after a grace period).
func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancelFunc()
	return &emptypb.Empty{}, nil
}

// ---- options from Pulumi.yaml (runtime.options) -------------------------------------------

type options struct {
	typescript bool
	tsconfig   string
	nodeargs   []string
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	opts := options{typescript: true}
	if info == nil || info.GetOptions() == nil {
		return opts, nil
	}
	for k, v := range info.GetOptions().AsMap() {
		switch k {
		case "typescript":
			b, ok := v.(bool)
			if !ok {
				return opts, errors.New("runtime option 'typescript' must be a boolean")
			}
			opts.typescript = b
		case "tsconfig":
			s, ok := v.(string)
			if !ok {
				return opts, errors.New("runtime option 'tsconfig' must be a string")
			}
			opts.tsconfig = s
		case "nodeargs":
			s, ok := v.(string)
			if !ok {
				return opts, errors.New("runtime option 'nodeargs' must be a string")
			}
			// Whitespace-separated; quoting is not supported by this host.
			opts.nodeargs = strings.Fields(s)
		}
		// Other options (packagemanager, production) only concern dependency installation.
	}
	return opts, nil
}

// ---- Run -----------------------------------------------------------------------------------

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		return nil, errors.New("RunRequest without program info (engine too old for this host)")
	}
	programDir := info.GetProgramDirectory()
	opts, err := parseOptions(info)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this language host does not support attaching a debugger"}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH: " + err.Error()}, nil
	}
	module := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if module == "" {
		module = runModule
	}
	runScript, err := resolveModule(node, programDir, module)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	h.mu.Lock()
	engineAddress := h.engineAddress
	h.mu.Unlock()

	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	flagArg := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagArg("monitor", req.GetMonitorAddress())
	flagArg("engine", engineAddress)
	flagArg("organization", req.GetOrganization())
	flagArg("project", req.GetProject())
	flagArg("root-directory", info.GetRootDirectory())
	flagArg("stack", req.GetStack())
	flagArg("pwd", programDir)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	flagArg("tracing", h.tracing)
	entry := info.GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("serialising config: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("serialising secret config keys: %w", err)
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON))
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	// Stop the program when the engine cancels (Cancel RPC) or the request goes away.
	runCtx, stopRun := context.WithCancel(h.cancel)
	defer stopRun()
	context.AfterFunc(ctx, stopRun)
	cmd := exec.CommandContext(runCtx, node, args...)
	cmd.Dir = programDir
	cmd.Env = env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	// Not the *os.File itself: node may switch a shared descriptor to non-blocking mode, which
	// would break this process's own writes; a plain writer makes exec copy through a pipe.
	cmd.Stdout = struct{ io.Writer }{os.Stdout}
	cmd.Stderr = struct{ io.Writer }{os.Stderr}
	logging.V(5).Infof("language host running: %s %s", node, strings.Join(args, " "))

	err = cmd.Run()
	if err == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		switch code := exitErr.ExitCode(); code {
		case exitAfterUserMessage:
			return &pulumirpc.RunResponse{Bail: true}, nil
		case -1:
			return &pulumirpc.RunResponse{Error: "Program was stopped: " + exitErr.String()}, nil
		default:
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
		}
	}
	return &pulumirpc.RunResponse{Error: "could not run the Node.js program: " + err.Error()}, nil
}

// resolveModule asks node where a module resolves from the program directory.
func resolveModule(node, dir, module string) (string, error) {
	const script = `try { console.log(require.resolve(process.argv[1])) } catch (e) {
  console.error(e.code === "MODULE_NOT_FOUND"
    ? "cannot find " + process.argv[1] + " from " + process.cwd() + ": install the program's dependencies (npm install)"
    : e.message);
  process.exit(1);
}`
	cmd := exec.Command(node, "-e", script, module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && len(exitErr.Stderr) > 0 {
			return "", errors.New(strings.TrimSpace(string(exitErr.Stderr)))
		}
		return "", fmt.Errorf("running node to resolve %s: %w", module, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// ---- required packages (plugins) -------------------------------------------------------------

type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	Pulumi               struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	} `json:"pulumi"`
}

func readPackageJSON(path string) (*packageJSON, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p packageJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &p, nil
}

// findPackage resolves a dependency the way Node does: node_modules/<name> in `from` and each parent.
func findPackage(from, name string) (string, bool) {
	for dir := from; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")
		if _, err := os.Stat(candidate); err == nil {
			return candidate, true
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", false
		}
	}
}

type providerPackage struct{ name, version, server string }

// providerPackages walks the dependency closure of the program's package.json and returns the
// packages that declare a resource provider plugin.
func providerPackages(programDir string) ([]providerPackage, error) {
	root := filepath.Join(programDir, "package.json")
	if _, err := os.Stat(root); err != nil {
		return nil, nil // no package.json: nothing to report
	}
	seen := map[string]bool{}
	found := map[string]providerPackage{}
	var visit func(pkgJSON string, top bool) error
	visit = func(pkgJSON string, top bool) error {
		real, err := filepath.EvalSymlinks(pkgJSON)
		if err != nil {
			real = pkgJSON
		}
		if seen[real] {
			return nil
		}
		seen[real] = true
		p, err := readPackageJSON(pkgJSON)
		if err != nil {
			return err
		}
		if p.Pulumi.Resource {
			name := p.Pulumi.Name
			if name == "" {
				if !strings.HasPrefix(p.Name, "@pulumi/") {
					return fmt.Errorf("%s: resource package %q has no \"pulumi.name\"", pkgJSON, p.Name)
				}
				name = strings.TrimPrefix(p.Name, "@pulumi/")
			}
			v := p.Pulumi.Version
			if v == "" {
				v = p.Version
			}
			if !strings.HasPrefix(v, "v") {
				v = "v" + v
			}
			found[name+"@"+v] = providerPackage{name: name, version: v, server: p.Pulumi.Server}
		}
		deps := []map[string]string{p.Dependencies, p.OptionalDependencies}
		if top {
			deps = append(deps, p.DevDependencies)
		}
		dir := filepath.Dir(pkgJSON)
		for _, m := range deps {
			for dep := range m {
				if path, ok := findPackage(dir, dep); ok {
					if err := visit(path, false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if err := visit(root, true); err != nil {
		return nil, err
	}
	out := make([]providerPackage, 0, len(found))
	for _, p := range found {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name+out[i].version < out[j].name+out[j].version })
	return out, nil
}

func (h *host) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	pkgs, err := providerPackages(req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	resp := &pulumirpc.GetRequiredPackagesResponse{}
	for _, p := range pkgs {
		resp.Packages = append(resp.Packages, &pulumirpc.PackageDependency{
			Name: p.name, Kind: "resource", Version: p.version, Server: p.server,
		})
	}
	return resp, nil
}

func (h *host) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	pkgs, err := providerPackages(req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	resp := &pulumirpc.GetRequiredPluginsResponse{}
	for _, p := range pkgs {
		resp.Plugins = append(resp.Plugins, &pulumirpc.PluginDependency{
			Name: p.name, Kind: "resource", Version: p.version, Server: p.server,
		})
	}
	return resp, nil
}

// ---- about / dependencies ---------------------------------------------------------------------

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find node on the $PATH: %w", err)
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
		Metadata:   map[string]string{"languageHost": "seatunnel-app tools/pulumi/language-nodejs"},
	}, nil
}

// GetProgramDependencies lists the program's direct dependencies with their installed versions.
func (h *host) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	p, err := readPackageJSON(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(p.Dependencies)+len(p.DevDependencies))
	for n := range p.Dependencies {
		names = append(names, n)
	}
	if req.GetTransitiveDependencies() {
		for n := range p.DevDependencies {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, n := range names {
		path, ok := findPackage(dir, n)
		if !ok {
			continue
		}
		dep, err := readPackageJSON(path)
		if err != nil {
			continue
		}
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: n, Version: dep.Version})
	}
	return resp, nil
}
