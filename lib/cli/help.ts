export const HELP = `seatunnel-app — run Apache SeaTunnel (Zeta) jobs on Kubernetes in application mode:
one job = one isolated engine cluster (a master Job that creates its own workers).

Usage:
  seatunnel-app submit    [-t kubernetes] [-a deploy.conf] [-c job.conf] [-Dkey=value ...]
                          [--job-id N] [--restore-job-id M] [--wait [--wait-timeout MS] [--wait-interval MS]] [--dry-run]
  seatunnel-app status    --id APP_ID [-a deploy.conf] [--wait [--wait-timeout MS] [--wait-interval MS] | --explain]
  seatunnel-app list      [-a deploy.conf | -n NS | -A] [-l SELECTOR] [--status S[,S...]]
  seatunnel-app logs      --id APP_ID [-a deploy.conf | -n NS] [--role master|worker | --worker N] [-f]
                          [--since DURATION] [--tail N] [--previous] [--timestamps]
  seatunnel-app cancel    --id APP_ID [-a deploy.conf] [--savepoint [--wait-timeout MS]]
  seatunnel-app preflight [-a deploy.conf] [-c job.conf] [-Dkey=value ...]
  seatunnel-app synth     [-a deploy.conf] [-c job.conf] [-Dkey=value ...] [-o DIR]
  seatunnel-app docs      [--write | --check]
  seatunnel-app completion bash|zsh
Every command also takes -h, and all but logs --output json.

Commands:
  submit     Validate everything, check that referenced ConfigMaps, Secrets, the ServiceAccount,
             the checkpoint PVC and image pull secrets exist, create the Job suspended, create
             its dependents (owned by the Job) in parallel, then start it. Prints
             "Application ID:" and "Job ID:" and returns at once (unless --wait). If any step
             fails or gets no clear answer, everything this submission created is deleted again
             (never an object that existed before) and the error says what was rolled back.
  status     The status from Kubernetes alone: CREATED (suspended), DEPLOYING, RUNNING,
             SUCCEEDED, FAILED, CANCELED or UNKNOWN (no such Job: never submitted, cancelled, or
             expired), with the reason when one is known: Unschedulable with the scheduler's
             message, ErrImagePull (FAILED with ImagePullFailed once the master Pod has failed
             to pull for application.image-pull-retry-millis), CreateContainerConfigError, a
             quota refusal, OOMKilled, the runtime's failure reason, Zeta's error. Also the phase
             and registered/desired workers.
             CANCELED: the master exited with the runtime's cancel code (2), or the Job is being
             deleted before it finished.
             --explain adds the story: durations between the milestones (Job created, started,
             runtime started, workers registered, job submitted, ended, finished), the phases
             with their times, and a timeline from the Job, the runtime's annotations, the Job's
             Events (the Job controller's and the runtime's) and the Pods that still exist — at
             most 60 entries. Events expire after 1 h by default; the Job and its annotations
             keep the phases and the final reason for as long as the Job exists.
  list       One line per application: ID, status, phase, workers registered/desired, Zeta job
             ID, age, name — each exactly what status --id says. Reads all applications with one
             list call per kind (Jobs, Pods; Events only if one waits for its master Pod), page
             by page, however many there are. --output json: an array of status's JSON records.
  logs       The containers' output of the master (runtime and Zeta, one container) and the
             workers, through the API server (GET .../pods/NAME/log). With several Pods each line
             starts with [pod/NAME/CONTAINER]. -f follows until every Pod of the application has
             ended, including a worker that replaces another; a Pod that ends is reported once
             on stderr. When no Pod is left (the application finished, or the Job is gone) it
             says so, prints what status knows, and exits 2.
  cancel     Delete the application: the Job (foreground), then anything still labelled with the
             application ID and made by this tool (Pods, the generated ServiceAccount, Services,
             ConfigMaps, Secrets, worker template, Role, RoleBinding, NetworkPolicies, with HA the
             masters' StatefulSet). Referenced ConfigMaps and Secrets, a named ServiceAccount
             (kubernetes.service-account) and the checkpoint PVC are never touched. Safe to repeat.
             --savepoint (ours): first ask the runtime to stop the job with a savepoint, so a
             streaming job keeps its state at the stop for submit --restore-job-id (waits up to
             --wait-timeout, default 90000 ms), then delete as above. Without it a streaming
             job keeps its latest completed checkpoint, also for --restore-job-id.
  preflight  Everything that would stop the application, in one report, creating nothing:
             server-side dry run of the Job, its dependents, the master Pod and the N worker Pods;
             ResourceQuota headroom for master + N workers; LimitRange compatibility; your
             permissions (SelfSubjectAccessReview) for every command; missing referenced objects
             and keys. It lists the images the nodes must pull (a dry run cannot tell whether they can).
  synth      Write the application's manifests (one YAML file, dependents before the Job) for
             kubectl apply or GitOps. Without -a and -c, synthesizes the bundled example.
  docs       Print the option reference docs/options.md; --write regenerates every generated
             doc (docs/options.md, docs/zh/options.md, the failure-reason tables of
             docs/troubleshooting.md and docs/zh/troubleshooting.md), --check fails if one is stale.
  completion Print the shell's completion script (commands, flags, -D option keys and their
             values): source <(seatunnel-app completion bash), or zsh after compinit.

kubectl plugin: the package also installs kubectl-seatunnel, so kubectl seatunnel COMMAND ... is this
CLI; kubectl's own completion completes it (kubectl 1.26+, through kubectl_complete-seatunnel).

Options:
  -t, --target kubernetes        Accepted for compatibility; kubernetes is the only target.
  -a, --application-config FILE  Deployment file (HOCON, application.* and kubernetes.* keys).
                                 status, list and cancel read only kubernetes.namespace and kubeconfig.
  -c, --config FILE              Job file, sent verbatim (\${VAR} is resolved inside the master Pod).
  -Dkey=value                    Override a deployment option (not for secrets: visible in ps).
  -ikey=value, -i key=value      The same override as SeaTunnel's starter spells it; -D and -i apply in
                                 command-line order (the last one for a key wins).
      --job-id N                 Native Zeta job ID (default: generated).
      --restore-job-id M         Start from the latest checkpoint of Zeta job M.
      --id APP_ID                The application (status, logs, cancel).
  -n, --namespace NS             list, logs: this namespace instead of kubernetes.namespace.
  -A, --all-namespaces           list: every namespace (adds a NAMESPACE column).
  -l, --selector SELECTOR        list: only applications whose Job matches this label selector
                                 (kubectl syntax, e.g. team=data,env in (prod,staging)).
      --status S[,S...]          list: only these statuses (CREATED, DEPLOYING, RUNNING,
                                 SUCCEEDED, FAILED, CANCELED, UNKNOWN; any case).
      --role master|worker       logs: only the master's or only the workers' log (default both).
      --worker N                 logs: only worker N (the Pod APP_ID-worker-N, N from 1).
  -f, --follow                   logs: keep printing as the Pods write, until they have all ended.
      --since DURATION           logs: only lines newer than this (30s, 10m, 2h, 1h30m).
      --tail N                   logs: only the last N lines of each Pod.
      --previous                 logs: the previous container of a Pod that restarted.
      --timestamps               logs: each line starts with the time the kubelet received it.
      --wait                     Follow the application until it ends (submit, status). On a
                                 terminal one live line (status, phase, workers, elapsed time);
                                 otherwise a line on stderr each time the state changes.
      --wait-timeout MS          Give up waiting after MS milliseconds (0 = never, the default).
      --wait-interval MS         Poll interval while waiting (default 500).
      --explain                  status: the application's timeline and phase durations.
      --dry-run                  submit: run the preflight instead of creating anything.
  -o, --output-dir DIR           synth: where to write (default dist).
      --output json              One JSON document on stdout instead of text.
      --trust-deployment-file    Let the deployment file (and its includes) read files outside its
                                 directory, name a kubeconfig that runs a credential plugin or names
                                 files elsewhere, and put host environment variables into labels,
                                 annotations, ConfigMap data or env literals. Without it a deployment
                                 file is data: safe to preflight or synth from a pull request.
  -h, --help                     This help.

Exit codes:
  0   success; plain status and list whenever the query worked; with --wait: SUCCEEDED or CANCELED
  1   with --wait: FAILED; otherwise the command failed (an API error; a submit that was rolled back)
  2   with --wait: UNKNOWN (the application does not exist, or its record expired); logs: no Pod
      left to read (what status knows is printed)
  3   --wait-timeout expired (the last status is printed; the application keeps running)
  4   preflight (or submit --dry-run) found problems
  64  bad usage or invalid configuration (nothing was sent, nothing was written)

Connection: kubernetes.kubeconfig (relative to the deployment file), then KUBECONFIG, then the
in-cluster ServiceAccount, then ~/.kube/config. The kubeconfig never leaves this machine. A
kubeconfig that turns off the server's certificate check (insecure-skip-tls-verify) is warned about.
Requests time out after 10 s (SEATUNNEL_APP_REQUEST_TIMEOUT_MS changes that).
Options reference: docs/options.md.
`;
