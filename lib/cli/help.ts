export const HELP = `seatunnel-app — run Apache SeaTunnel (Zeta) jobs on Kubernetes in application mode:
one job = one isolated engine cluster (a master Job that creates its own workers).

Usage:
  seatunnel-app submit    [-t kubernetes] [-a deploy.conf] [-c job.conf] [-Dkey=value ...]
                          [--job-id N] [--restore-job-id M] [--wait [--wait-timeout MS] [--wait-interval MS]] [--dry-run]
  seatunnel-app status    --id APP_ID [-a deploy.conf] [--wait [--wait-timeout MS] [--wait-interval MS]]
  seatunnel-app cancel    --id APP_ID [-a deploy.conf]
  seatunnel-app preflight [-a deploy.conf] [-c job.conf] [-Dkey=value ...]
  seatunnel-app synth     [-a deploy.conf] [-c job.conf] [-Dkey=value ...] [-o DIR]
  seatunnel-app docs      [--write | --check]

Commands:
  submit     Validate, check referenced objects, create the suspended Job, its dependents (owned by
             the Job), then start it. Prints "Application ID:" and "Job ID:"; returns at once
             unless --wait. Any failure removes exactly what this attempt created.
  status     The application's status from Kubernetes alone: CREATED, DEPLOYING, RUNNING, SUCCEEDED,
             FAILED, CANCELED or UNKNOWN, with the reason when one is known.
  cancel     Delete the application (its Job and everything it owns). Referenced ConfigMaps, Secrets,
             the ServiceAccount and the checkpoint PVC are never touched. Safe to repeat.
  preflight  Server-side dry run of the Job, its dependents and the N worker Pods; quota, limit range
             and permission checks for the whole footprint. Creates nothing.
  synth      Write the application's manifests (one YAML file, dependents before the Job) for
             kubectl apply or GitOps. Without -a and -c, synthesizes the bundled example.
  docs       Print (or --write / --check) the option reference docs/options.md.

Options:
  -t, --target kubernetes        Accepted for compatibility; kubernetes is the only target.
  -a, --application-config FILE  Deployment file (HOCON, application.* and kubernetes.* keys).
  -c, --config FILE              Job file, sent verbatim (\${VAR} is resolved inside the master Pod).
  -Dkey=value                    Override a deployment option (not for secrets: visible in ps).
      --job-id N                 Native Zeta job ID (default: generated).
      --restore-job-id M         Start from the latest checkpoint of Zeta job M.
      --id APP_ID                The application (status, cancel).
      --wait                     Follow the application until it ends (submit, status).
      --wait-timeout MS          Give up waiting after MS milliseconds (0 = never, the default).
      --wait-interval MS         Poll interval while waiting (default 500).
      --dry-run                  submit: run the preflight instead of creating anything.
  -o, --output-dir DIR           synth: where to write (default dist).
      --output json              One JSON document on stdout instead of text.
  -h, --help                     This help.

Exit codes:
  0   success; with --wait: SUCCEEDED or CANCELED
  1   with --wait: FAILED; otherwise the command failed (e.g. an API error after rollback)
  2   with --wait: UNKNOWN (the application does not exist, or its record expired)
  3   --wait-timeout expired (the last status is printed)
  4   preflight found problems
  64  bad usage or invalid configuration (nothing was sent, nothing was written)

Options reference: docs/options.md. Kubeconfig: kubernetes.kubeconfig, then KUBECONFIG, then in-cluster.
`;
