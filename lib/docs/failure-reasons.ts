// Every reason the runtime (runtime/src/outcome.ts REASONS) and `status` (lib/submit/observe/status.ts) can
// print, what it means and what to do, in English and Chinese. docs/troubleshooting.md and
// docs/zh/troubleshooting.md carry the table rendered from here (`npm run docs`); a unit test fails
// when a reason either side can print has no entry, or an entry's exit code differs from the runtime's.

export interface ReasonText {
  readonly meaning: string;
  readonly action: string;
}

export interface ReasonEntry {
  /** Who prints it: the runtime (Job annotation `failure-reason`, Event, exit code) and/or `status` (`Reason:`). */
  readonly by: 'runtime' | 'status';
  /** The application status it comes with. */
  readonly status: string;
  /** The master's exit code, for the runtime's reasons. */
  readonly exit?: number;
  readonly en: ReasonText;
  readonly zh: ReasonText;
}

const MASTER_LOG = '`seatunnel-app logs --id APP_ID`';

/** Keyed by the reason exactly as printed; `exit code N` stands for status's `exit code N: …`, `Init:<reason>` for any `Init:…`. */
export const FAILURE_REASONS: Readonly<Record<string, ReasonEntry>> = {
  // ---- the runtime's reasons (also what `status` prints as Reason once the runtime wrote them) ----
  JobFinished: {
    by: 'runtime',
    status: 'SUCCEEDED',
    exit: 0,
    en: { meaning: 'The Zeta job ended `FINISHED` (or `SAVEPOINT_DONE`).', action: 'Nothing: this is success.' },
    zh: { meaning: 'Zeta 作业以 `FINISHED`（或 `SAVEPOINT_DONE`）结束。', action: '无需处理：作业成功。' },
  },
  JobFailed: {
    by: 'runtime',
    status: 'FAILED',
    exit: 1,
    en: {
      meaning:
        "The Zeta job ended `FAILED` or `UNKNOWABLE`; the message carries Zeta's first error line, and when Zeta lost a member (`deployed node([IP]:PORT) offline`) the worker Pod with that IP and how its container ended (e.g. `OOMKilled`, exit code 137: raise `application.worker.memory-mb`).",
      action: `Read the master log (${MASTER_LOG}) and the worker logs (\`--role worker\`: after the end, the last 200 lines the runtime kept of each); fix the job or its source/sink, then submit again (a streaming job with checkpoints: \`--restore-job-id\`).`,
    },
    zh: {
      meaning:
        'Zeta 作业以 `FAILED` 或 `UNKNOWABLE` 结束；消息中带有 Zeta 的第一行错误信息；当 Zeta 丢失了某个成员（`deployed node([IP]:PORT) offline`）时，还会带上具有该 IP 的 worker Pod 以及其容器的结束方式（例如 `OOMKilled`，退出码 137：请调大 `application.worker.memory-mb`）。',
      action: `查看 master 日志（${MASTER_LOG}）和 worker 日志（\`--role worker\`：应用结束后为 runtime 为每个 worker 保留的最后 200 行），修复作业或其 source/sink 后重新提交（有检查点的流作业使用 \`--restore-job-id\`）。`,
    },
  },
  JobRejected: {
    by: 'runtime',
    status: 'FAILED',
    exit: 1,
    en: {
      meaning:
        'Zeta refused the submission: the job config is not valid for the engine, or a connector plugin is missing.',
      action:
        "Read the message; check that every connector, format and driver jar is in the image's `connectors/` and `lib/`, and that the job runs with `seatunnel.sh` of the same version.",
    },
    zh: {
      meaning: 'Zeta 拒绝了作业提交：作业配置对引擎无效，或缺少连接器插件。',
      action:
        '查看消息；确认镜像的 `connectors/` 和 `lib/` 中包含所有连接器、格式和驱动 jar，并确认该作业能用同版本的 `seatunnel.sh` 运行。',
    },
  },
  JobCanceled: {
    by: 'runtime',
    status: 'CANCELED',
    exit: 2,
    en: {
      meaning: 'The job was cancelled inside the engine without the runtime asking (e.g. through Zeta directly).',
      action: 'Find out who cancelled it; submit again if it should run.',
    },
    zh: {
      meaning: '作业在引擎内部被取消，而不是由 runtime 发起（例如直接通过 Zeta 取消）。',
      action: '查明是谁取消的；如需继续运行，重新提交。',
    },
  },
  Terminated: {
    by: 'runtime',
    status: 'CANCELED',
    exit: 2,
    en: {
      meaning:
        'The application was stopped by a user: `cancel`, the Job deleted (also by its TTL), or the master Pod deleted by hand. A stop by Kubernetes has its own reason (`Evicted`, `Preempted`, `NodeLost`, `MasterUnhealthy`, `Killed`).',
      action:
        'Expected after `cancel`. A streaming job can continue from its checkpoints with `--restore-job-id` (a plain `cancel` keeps the latest completed one, `--savepoint` its state at the stop): see [checkpoint recovery](checkpoint-recovery.md).',
    },
    zh: {
      meaning:
        '应用被用户停止：`cancel`、Job 被删除（包括其 TTL 到期），或 master Pod 被手动删除。由 Kubernetes 造成的停止有各自的原因（`Evicted`、`Preempted`、`NodeLost`、`MasterUnhealthy`、`Killed`）。',
      action:
        '执行 `cancel` 后属于正常现象。流作业可以用 `--restore-job-id` 从其检查点继续运行（普通 `cancel` 保留最近完成的检查点，`--savepoint` 保留停止时刻的状态）：见[检查点恢复](checkpoint-recovery.md)。',
    },
  },
  Evicted: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        "Kubernetes evicted the master Pod: a node drain (the Eviction API) or the kubelet under node pressure (memory, disk) or in a graceful node shutdown. The Pod's DisruptionTarget condition says which; the message quotes it. `status` shows it too when the runtime could not record it (a Pod evicted before its runtime ran).",
      action:
        'A drain or a shutdown: submit again (a streaming job continues from its checkpoints with `--restore-job-id`; it was stopped with a savepoint). Node pressure: give the master Guaranteed resources that fit the node. With HA a drained coordinator is replaced instead and the job goes on.',
    },
    zh: {
      meaning:
        'Kubernetes 驱逐了 master Pod：节点排空（Eviction API），或 kubelet 在节点资源压力（内存、磁盘）或节点优雅关闭时驱逐。Pod 的 DisruptionTarget 条件说明是哪一种，消息中会引用。',
      action:
        '排空或关机：重新提交（流作业以保存点停止，可用 `--restore-job-id` 从检查点继续）。节点资源压力：为 master 设置适合该节点的 Guaranteed 资源。HA 模式下被排空的协调器会被替换，作业继续运行。',
    },
  },
  Preempted: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning: 'The scheduler preempted the master Pod to make room for a Pod of higher priority.',
      action:
        'Run the application where it is not preempted — a namespace or node pool whose workloads do not outrank it (`kubernetes.master.node-selector`), or a default PriorityClass your platform gives the namespace — and submit again.',
    },
    zh: {
      meaning: '调度器为给更高优先级的 Pod 腾出空间而抢占了 master Pod。',
      action:
        '在不会被抢占的地方运行应用——其工作负载优先级不高于它的命名空间或节点池（`kubernetes.master.node-selector`），或由平台为该命名空间提供的默认 PriorityClass——然后重新提交。',
    },
  },
  NodeLost: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        "The master Pod's node stopped answering or became not ready for longer than `kubernetes.node-loss-toleration-seconds` (taint eviction), or the node was removed or marked out of service (Pod garbage collection).",
      action:
        "`kubectl describe node` of the Pod's node. Submit again, or use HA (`application.ha.enabled`): then a lost node costs a master and a coordinator, not the job (docs/ha.md).",
    },
    zh: {
      meaning:
        'master Pod 所在节点失去响应或未就绪的时间超过 `kubernetes.node-loss-toleration-seconds`（污点驱逐），或该节点被移除或标记为停止服务（Pod 垃圾回收）。',
      action:
        '对 Pod 所在节点执行 `kubectl describe node`。重新提交，或使用 HA（`application.ha.enabled`）：此时丢失一个节点只损失一个 master 和协调器，而不是作业（docs/zh/ha.md）。',
    },
  },
  MasterUnhealthy: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        "The kubelet killed the master container because a probe failed: the startup probe (Zeta's master did not open its port within `application.startup-timeout-millis` after the workers' head start) or the liveness probe (its port stopped answering). The message quotes the kubelet's Event.",
      action:
        '`kubectl logs` of the master (`seatunnel-app logs --role master`) for why Zeta did not answer: a full heap (raise `application.master.memory-mb`), a long GC pause, a slow start on a loaded node (raise `application.startup-timeout-millis`).',
    },
    zh: {
      meaning:
        'kubelet 因探针失败杀死了 master 容器：startup 探针（在 worker 的先行启动时间之后，Zeta master 没有在 `application.startup-timeout-millis` 内打开端口）或 liveness 探针（端口不再应答）。消息中引用 kubelet 的事件。',
      action:
        '用 `kubectl logs` 查看 master（`seatunnel-app logs --role master`）以了解 Zeta 为何不应答：堆已满（调大 `application.master.memory-mb`）、长时间 GC 停顿、负载高的节点上启动缓慢（调大 `application.startup-timeout-millis`）。',
    },
  },
  Killed: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'The master was asked to stop (SIGTERM) although nothing in the API says why: neither the application nor its Pod was being deleted, and Kubernetes recorded no eviction, preemption or failed probe — e.g. the node shutting down without a graceful shutdown configured, or someone signalling the process on the node.',
      action:
        "`kubectl describe node` and the node's own logs around the time in `status`. A streaming job was stopped with a savepoint and can continue with `--restore-job-id`.",
    },
    zh: {
      meaning:
        'master 被要求停止（SIGTERM），但 API 中没有任何说明：应用和其 Pod 都没有被删除，Kubernetes 也没有记录驱逐、抢占或探针失败——例如节点在未配置优雅关闭的情况下关机，或有人在节点上向进程发送了信号。',
      action:
        '查看 `kubectl describe node` 以及 `status` 所示时间前后该节点自身的日志。流作业已以保存点停止，可以用 `--restore-job-id` 继续。',
    },
  },
  WorkerLost: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'A worker Pod was deleted, failed, is terminating or ended without the runtime asking, and was not replaced: the application fails. Workers are replaced only with HA and `application.ha.worker-failure-policy = replace`, up to `application.ha.worker-replacements` losses ([ha.md](ha.md)).',
      action:
        'The message says how the worker ended (the Pod is deleted at the end; its last lines: `seatunnel-app logs --id APP_ID --worker N`); while it exists, `kubectl describe pod APP_ID-worker-N` and its Events: OOMKilled (raise `application.worker.memory-mb`), eviction, node loss. Submit again; a streaming job continues from its checkpoint with `--restore-job-id`.',
    },
    zh: {
      meaning:
        '某个 worker Pod 被删除、失败、正在终止，或在 runtime 未要求的情况下结束，且没有被替换：应用失败。只有启用 HA 并设置 `application.ha.worker-failure-policy = replace` 时 worker 才会被替换，最多替换 `application.ha.worker-replacements` 次（[ha.md](ha.md)）。',
      action:
        '消息中说明了该 worker 的结束方式（应用结束时 Pod 会被删除；其最后几行日志：`seatunnel-app logs --id APP_ID --worker N`）；Pod 仍存在时，执行 `kubectl describe pod APP_ID-worker-N` 并查看其 Events：OOMKilled（调大 `application.worker.memory-mb`）、驱逐、节点丢失。重新提交；流作业可用 `--restore-job-id` 从检查点继续。',
    },
  },
  Unschedulable: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning:
        "A worker Pod or the master Pod (`status` shows DEPLOYING) cannot be scheduled; the message is the scheduler's. A worker fails the application when a cluster autoscaler says no scale-up helps (`NotTriggerScaleUp`, quoted in the message), or when none started one within `application.scale-up-grace-millis`.",
      action:
        'Read the scheduler\'s message: not enough CPU or memory (lower `application.worker.cpu-cores` / `memory-mb` / `worker-count`, or add nodes), `node-selector` or taints without matching `tolerations`, or "didn\'t match pod anti-affinity rules" / "topology spread constraints": `kubernetes.worker.spread = required` allows one worker per node (per domain of `kubernetes.worker.spread-topology`), and a DoNotSchedule constraint of `kubernetes.worker.topology-spread-constraints` holds workers back (add nodes, or use `preferred` / ScheduleAnyway).',
    },
    zh: {
      meaning:
        'worker Pod 或 master Pod（`status` 显示 DEPLOYING）无法被调度；消息来自调度器。当集群自动扩缩容器表示扩容无济于事（`NotTriggerScaleUp`，消息中会引用），或在 `application.scale-up-grace-millis` 内没有任何扩缩容器开始扩容时，worker 会使应用失败。',
      action:
        '阅读调度器消息：CPU 或内存不足（调小 `application.worker.cpu-cores` / `memory-mb` / `worker-count`，或增加节点），`node-selector` 不匹配，或存在污点但没有对应的 `tolerations`；或 "didn\'t match pod anti-affinity rules" / "topology spread constraints"：`kubernetes.worker.spread = required` 使每个节点（`kubernetes.worker.spread-topology` 的每个拓扑域）只能有一个 worker，`kubernetes.worker.topology-spread-constraints` 中的 DoNotSchedule 约束也会挡住 worker（增加节点，或改用 `preferred` / ScheduleAnyway）。',
    },
  },
  ErrImagePull: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning:
        'The image of a worker (or of the master, then DEPLOYING until `ImagePullFailed`) cannot be pulled; for a worker, it kept failing for `application.image-pull-retry-millis` while the kubelet retried.',
      action:
        'Check `kubernetes.image` (name and tag), that the nodes reach the registry, and `kubernetes.image-pull-secrets`.',
    },
    zh: {
      meaning:
        'worker（或 master，此时为 DEPLOYING，直到 `ImagePullFailed`）的镜像无法拉取；对 worker 而言，kubelet 重试期间它在 `application.image-pull-retry-millis` 内一直失败。',
      action: '检查 `kubernetes.image`（名称和 tag）、节点能否访问镜像仓库，以及 `kubernetes.image-pull-secrets`。',
    },
  },
  ImagePullBackOff: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning: 'The kubelet gave up pulling the image for a while after failed pulls.',
      action: 'As for `ErrImagePull`.',
    },
    zh: { meaning: '镜像拉取多次失败后，kubelet 暂停重试。', action: '同 `ErrImagePull`。' },
  },
  CreateContainerConfigError: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning:
        'The kubelet cannot build the container: a referenced Secret or ConfigMap (key) is missing, or `runAsNonRoot` meets an image that runs as root.',
      action:
        '`kubectl describe pod`; run `seatunnel-app preflight`; with `kubernetes.pod-security = restricted` set `kubernetes.run-as-user`.',
    },
    zh: {
      meaning:
        'kubelet 无法创建容器：引用的 Secret 或 ConfigMap（或其中的键）不存在，或 `runAsNonRoot` 遇到了以 root 运行的镜像。',
      action:
        '执行 `kubectl describe pod`；运行 `seatunnel-app preflight`；使用 `kubernetes.pod-security = restricted` 时设置 `kubernetes.run-as-user`。',
    },
  },
  InvalidImageName: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning: 'The image reference is malformed.',
      action: 'Fix `kubernetes.image` (or `kubernetes.runtime.image`).',
    },
    zh: { meaning: '镜像引用格式不正确。', action: '修正 `kubernetes.image`（或 `kubernetes.runtime.image`）。' },
  },
  ErrImageNeverPull: {
    by: 'runtime',
    status: 'FAILED / DEPLOYING',
    exit: 3,
    en: {
      meaning:
        'The pull policy is `Never` and the image is not on the node; nothing will put it there while the application waits.',
      action:
        'Load the image onto the nodes first, or use `IfNotPresent` (`kubernetes.image-pull-policy`, `kubernetes.runtime.image-pull-policy`).',
    },
    zh: {
      meaning: '拉取策略为 `Never`，而节点上没有该镜像；应用等待期间不会有任何东西把它放到节点上。',
      action:
        '先把镜像加载到节点上，或改用 `IfNotPresent`（`kubernetes.image-pull-policy`、`kubernetes.runtime.image-pull-policy`）。',
    },
  },
  WorkerCreateRefused: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'The API server refused to create a worker Pod: ResourceQuota, LimitRange, Pod Security admission, a webhook or the admission fence.',
      action:
        'The message names the refusal. Run `seatunnel-app preflight` with the same files: it checks quota headroom, LimitRanges and a dry run of the worker Pods.',
    },
    zh: {
      meaning: 'API Server 拒绝创建 worker Pod：ResourceQuota、LimitRange、Pod Security 准入、webhook 或准入围栏。',
      action:
        '消息中写明了拒绝原因。用相同的文件运行 `seatunnel-app preflight`：它会检查配额余量、LimitRange，并对 worker Pod 做 dry run。',
    },
  },
  StartupTimeout: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'Not every worker registered with the Zeta master within `application.startup-timeout-millis`; with HA, also: not every master became ready in that time ("Timed out starting N masters").',
      action:
        'Look at the worker Pods and their logs: a slow image pull, workers that cannot reach the master port (NetworkPolicies, `application.master.port`). Raise the timeout if pulls are just slow. A master left Pending by `kubernetes.master.spread = required` needs a node (a domain of `kubernetes.master.spread-topology`) that holds no other master: add nodes, or use `preferred`.',
    },
    zh: {
      meaning:
        '在 `application.startup-timeout-millis` 内，并非所有 worker 都注册到了 Zeta master；HA 模式下也可能是：并非所有 master 在此时间内就绪（"Timed out starting N masters"）。',
      action:
        '查看 worker Pod 及其日志：镜像拉取慢、worker 无法访问 master 端口（NetworkPolicy、`application.master.port`）。如果只是拉取较慢，调大超时时间。因 `kubernetes.master.spread = required` 而处于 Pending 的 master 需要一个尚无其他 master 的节点（`kubernetes.master.spread-topology` 的一个拓扑域）：增加节点，或改用 `preferred`。',
    },
  },
  ApiUnavailable: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'The runtime lost the Kubernetes API (it could not list or watch the worker Pods) for longer than it tolerates.',
      action:
        "Check the API server's health and that the master Pod may reach it (egress NetworkPolicies of the namespace). Submit again.",
    },
    zh: {
      meaning: 'runtime 与 Kubernetes API 失联（无法 list 或 watch worker Pod）的时间超过了容忍范围。',
      action: '检查 API Server 的健康状况，以及 master Pod 能否访问它（命名空间的出站 NetworkPolicy）。然后重新提交。',
    },
  },
  ApiError: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning: 'A Kubernetes API call of the runtime was refused, e.g. 403 because its Role lacks a permission.',
      action:
        'The message names the call. With `kubernetes.rbac.create = false` your own Role must grant what [the runtime calls](runtime.md#the-pod-spec-it-relies-on).',
    },
    zh: {
      meaning: 'runtime 的某个 Kubernetes API 调用被拒绝，例如因其 Role 缺少权限而返回 403。',
      action:
        '消息中写明了是哪个调用。设置 `kubernetes.rbac.create = false` 时，你自己的 Role 必须授予 [runtime 所需的调用](runtime.md#runtime-依赖的-pod-规格)。',
    },
  },
  CleanupFailed: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning: 'The job succeeded, but the runtime could not delete all worker Pods.',
      action: '`seatunnel-app cancel --id APP_ID` removes what is left.',
    },
    zh: {
      meaning: '作业已成功，但 runtime 未能删除全部 worker Pod。',
      action: '执行 `seatunnel-app cancel --id APP_ID` 清理残留对象。',
    },
  },
  InternalError: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning: 'An error the runtime did not expect (a bug); it still stopped the job and removed the workers.',
      action: `Keep the master log (${MASTER_LOG}) and \`status --output json\` and report it.`,
    },
    zh: {
      meaning: 'runtime 未预料到的错误（缺陷）；它仍然停止了作业并删除了 worker。',
      action: `保留 master 日志（${MASTER_LOG}）和 \`status --output json\` 的输出，并提交问题报告。`,
    },
  },
  InvalidSettings: {
    by: 'runtime',
    status: 'FAILED',
    exit: 4,
    en: {
      meaning:
        "The runtime's settings in the Pod are invalid: a hand-edited object, or a CLI and a runtime image of different versions.",
      action:
        'Do not edit the generated objects; use the runtime image of the same release as the CLI (`kubernetes.runtime.image`) and submit again.',
    },
    zh: {
      meaning: 'Pod 中 runtime 的设置无效：对象被手工修改，或 CLI 与 runtime 镜像版本不一致。',
      action: '不要修改生成的对象；使用与 CLI 同一版本的 runtime 镜像（`kubernetes.runtime.image`）后重新提交。',
    },
  },
  InvalidJobConfig: {
    by: 'runtime',
    status: 'FAILED',
    exit: 4,
    en: {
      meaning:
        'The job config inside the master cannot be read or is not valid HOCON (a `${VAR}` without its variable, a mounted file that is not there).',
      action:
        'Check `kubernetes.job-config-file` against its mount, and that `kubernetes.env.*` or `kubernetes.master.env.*` provides every `${VAR}` of the job.',
    },
    zh: {
      meaning: 'master 内的作业配置无法读取或不是合法的 HOCON（`${VAR}` 对应的变量不存在、挂载的文件不存在）。',
      action:
        '核对 `kubernetes.job-config-file` 与其挂载，并确认 `kubernetes.env.*` 或 `kubernetes.master.env.*` 提供了作业中的每个 `${VAR}`。',
    },
  },
  ConnectorMissing: {
    by: 'runtime',
    status: 'FAILED',
    exit: 4,
    en: {
      meaning:
        "A source or sink the job names is not in the image's engine: no `seatunnel.<source|sink>.<Name>` line in `connectors/plugin-mapping.properties`, or no jar with the prefix it maps to in `connectors/`. Checked before the engine or any worker starts.",
      action:
        'Use an image built `FROM` this one with the connector jar in `connectors/` and its lines in `plugin-mapping.properties` (see [connectors and drivers](connectors.md)), set it as `kubernetes.image`, and submit again.',
    },
    zh: {
      meaning:
        '作业中的某个 source 或 sink 不在镜像的引擎中：`connectors/plugin-mapping.properties` 中没有 `seatunnel.<source|sink>.<Name>` 这一行，或者 `connectors/` 中没有它映射到的前缀的 jar。在引擎和任何 worker 启动之前检查。',
      action:
        '使用一个 `FROM` 该镜像构建的镜像，把连接器的 jar 放入 `connectors/`，并在 `plugin-mapping.properties` 中加入它的行（见[连接器与驱动](connectors.md)），设为 `kubernetes.image` 后重新提交。',
    },
  },
  InvalidWorkerTemplate: {
    by: 'runtime',
    status: 'FAILED',
    exit: 4,
    en: {
      meaning: 'The worker PodTemplate is missing or lacks what the runtime stamps (the master address variables).',
      action: 'Do not edit the generated template; submit again.',
    },
    zh: {
      meaning: 'worker PodTemplate 不存在，或缺少 runtime 需要填写的内容（master 地址变量）。',
      action: '不要修改生成的模板；重新提交。',
    },
  },
  CheckpointNotFound: {
    by: 'runtime',
    status: 'FAILED',
    exit: 4,
    en: {
      meaning:
        '`--restore-job-id` names a job without a checkpoint in the configured storage, or storage the runtime cannot inspect. It never starts fresh instead.',
      action:
        'Use the old **Zeta job ID** (not the application ID), the same `kubernetes.checkpoint-pvc` and checkpoint namespace: see [checkpoint recovery](checkpoint-recovery.md).',
    },
    zh: {
      meaning:
        '`--restore-job-id` 指定的作业在所配置的存储中没有检查点，或该存储 runtime 无法检查。runtime 绝不会改为从头开始。',
      action:
        '使用旧的 **Zeta 作业 ID**（而不是应用 ID），以及相同的 `kubernetes.checkpoint-pvc` 和检查点 namespace：见[检查点恢复](checkpoint-recovery.md)。',
    },
  },
  EngineStartFailed: {
    by: 'runtime',
    status: 'FAILED',
    exit: 5,
    en: {
      meaning:
        'The Zeta master process could not be started (a wrong `kubernetes.seatunnel-home`, no Java in the image, a broken runtime file).',
      action: `Read the master log (${MASTER_LOG}); check \`kubernetes.seatunnel-home\` and \`kubernetes.runtime-files.*\`.`,
    },
    zh: {
      meaning: 'Zeta master 进程无法启动（`kubernetes.seatunnel-home` 错误、镜像中没有 Java、运行时文件有误）。',
      action: `查看 master 日志（${MASTER_LOG}）；检查 \`kubernetes.seatunnel-home\` 和 \`kubernetes.runtime-files.*\`。`,
    },
  },
  EngineStartTimeout: {
    by: 'runtime',
    status: 'FAILED',
    exit: 5,
    en: {
      meaning: 'The Zeta master did not answer within `application.startup-timeout-millis`.',
      action: 'Read the master log; give the master more memory or CPU, or raise the timeout.',
    },
    zh: {
      meaning: 'Zeta master 在 `application.startup-timeout-millis` 内没有响应。',
      action: '查看 master 日志；为 master 分配更多内存或 CPU，或调大超时时间。',
    },
  },
  EngineExited: {
    by: 'runtime',
    status: 'FAILED',
    exit: 5,
    en: {
      meaning: 'The Zeta master process ended while the application ran (a crash, the JVM out of memory).',
      action: 'Read the master log; raise `application.master.memory-mb`.',
    },
    zh: {
      meaning: '应用运行期间 Zeta master 进程退出（崩溃、JVM 内存不足）。',
      action: '查看 master 日志；调大 `application.master.memory-mb`。',
    },
  },
  EngineUnreachable: {
    by: 'runtime',
    status: 'FAILED',
    exit: 5,
    en: {
      meaning:
        "The engine's job status could not be read for longer than tolerated, or the job could not be submitted (a submission that got no answer is looked for in Zeta for 2 minutes before it counts as lost).",
      action:
        "The runtime's log (with HA, the coordinator's) says `the engine's job status cannot be read` from 10 s on, every 30 s, with the error; read the master log too (long GC pauses, an overloaded master); raise `application.master.memory-mb` or `cpu-cores`.",
    },
    zh: {
      meaning:
        '在容忍时间内无法读取引擎中的作业状态，或作业无法提交（未得到应答的提交会在 Zeta 中查找 2 分钟，之后才算丢失）。',
      action:
        "runtime 的日志（HA 时为协调者的日志）从第 10 s 起每 30 s 输出一次 `the engine's job status cannot be read` 及其错误；同时查看 master 日志（GC 停顿过长、master 负载过高）；调大 `application.master.memory-mb` 或 `cpu-cores`。",
    },
  },

  // ---- what only `status` prints ----
  NotFound: {
    by: 'status',
    status: 'UNKNOWN',
    en: {
      meaning:
        'No Job with this ID in the namespace: never submitted there, cancelled, or removed after `kubernetes.finished-job-retention-seconds`.',
      action:
        'Check the namespace (`-a` or `-n`) and `seatunnel-app list`; raise the retention to keep finished applications longer.',
    },
    zh: {
      meaning:
        '该命名空间中没有此 ID 的 Job：从未提交到这里、已被取消，或超过 `kubernetes.finished-job-retention-seconds` 后被删除。',
      action: '检查命名空间（`-a` 或 `-n`）并执行 `seatunnel-app list`；如需更长时间保留已结束的应用，调大保留时长。',
    },
  },
  ImagePullFailed: {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning:
        'The master Pod (with HA the coordinator) could not pull an image — the SeaTunnel image, or the runtime image of its `install-runtime` init container — for longer than `application.image-pull-retry-millis` (default 60 s). Without its runtime nothing in the cluster ends the application: `status` gives up on it, and `status --wait` returns. The Job stays until cancelled.',
      action:
        'Load the image into the container runtime of the nodes, or push it to a registry the nodes can reach and name it there ([runtime.md, "Delivery"](runtime.md#delivery); the runtime image is built by `npm run image` in a checkout of the release); then `seatunnel-app cancel --id APP_ID` and submit again.',
    },
    zh: {
      meaning:
        'master Pod（HA 下为 coordinator）拉取镜像（SeaTunnel 镜像，或其 `install-runtime` init 容器的 runtime 镜像）失败的时间超过了 `application.image-pull-retry-millis`（默认 60 秒）。没有 runtime，集群中没有任何东西会结束该应用：`status` 放弃等待，`status --wait` 返回。Job 会一直保留，直到被取消。',
      action:
        '把镜像导入节点的容器运行时，或推送到节点可访问的镜像仓库并在配置中使用该名称（[runtime.md，“交付”](runtime.md#交付)；runtime 镜像由该版本检出目录中的 `npm run image` 构建）；然后执行 `seatunnel-app cancel --id APP_ID` 并重新提交。',
    },
  },
  Deleting: {
    by: 'status',
    status: 'CANCELED',
    en: {
      meaning: 'The Job is being deleted (a `cancel` is under way); its Pods are stopping.',
      action: 'Wait; run `cancel` again if it stays like that.',
    },
    zh: {
      meaning: 'Job 正在被删除（`cancel` 进行中），其 Pod 正在停止。',
      action: '等待；若长时间保持此状态，再次执行 `cancel`。',
    },
  },
  Suspended: {
    by: 'status',
    status: 'CREATED',
    en: {
      meaning:
        'The Job is suspended: `submit` created it but has not started it — it is still running, or it stopped without a clean answer from the API server.',
      action: 'If no `submit` is running: `seatunnel-app cancel --id APP_ID`, then submit again.',
    },
    zh: {
      meaning: 'Job 处于挂起状态：`submit` 已创建但尚未启动它——提交仍在进行，或因 API Server 没有给出明确应答而中断。',
      action: '如果没有正在运行的 `submit`：执行 `seatunnel-app cancel --id APP_ID`，然后重新提交。',
    },
  },
  OOMKilled: {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning: 'The master container was killed for exceeding its memory limit.',
      action: 'Raise `application.master.memory-mb`.',
    },
    zh: { meaning: 'master 容器因超出内存 limit 被杀死。', action: '调大 `application.master.memory-mb`。' },
  },
  JobLost: {
    by: 'runtime',
    status: 'FAILED',
    exit: 5,
    en: {
      meaning:
        'With HA: an earlier coordinator claimed the job for submission, but no master knows it — every master was lost at once, or that coordinator stopped between its claim and sending the job. A claimed job is never submitted again: it cannot be told from one that ran.',
      action:
        'Start a new application with `--restore-job-id` set to the job ID: the checkpoints are on the shared storage. Keep the masters on different nodes so one node cannot take them all: `kubernetes.master.spread = required` (the default, `preferred`, lets them share a node when no other fits; `kubernetes.master.spread-topology` adds zones).',
    },
    zh: {
      meaning:
        'HA 模式：之前的协调器已声明提交该作业，但没有任何 master 知道它——所有 master 同时丢失，或那个协调器在声明之后、发送作业之前停止了。已声明的作业绝不会再次提交：无法把它与已经运行过的作业区分开。',
      action:
        '用 `--restore-job-id` 指定该作业 ID 启动一个新应用：检查点在共享存储上。让 master 分布在不同节点上，避免一个节点带走全部 master：`kubernetes.master.spread = required`（默认的 `preferred` 在没有其他节点可用时允许 master 共用节点；`kubernetes.master.spread-topology` 可加上可用区）。',
    },
  },
  CoordinatorRestartsExhausted: {
    by: 'runtime',
    status: 'FAILED',
    exit: 3,
    en: {
      meaning:
        'With HA: coordinator Pods failed more often than `application.ha.coordinator-restarts` allows. The last coordinator the Job starts does nothing but remove the masters and workers, so nothing keeps running until the Job’s TTL; the job ends with them and keeps its checkpoints.',
      action:
        '`kubectl logs job/APP_ID --previous` and `kubectl describe pod` of the coordinators show why they failed (OOMKilled: the coordinator is small on purpose; a crash: report it). Restore a streaming job with a new application and `--restore-job-id`.',
    },
    zh: {
      meaning:
        'HA 模式：协调器 Pod 失败的次数超过了 `application.ha.coordinator-restarts` 允许的次数。Job 启动的最后一个协调器只删除 master 和 worker，因此不会有任何东西一直运行到 Job 的 TTL；作业随之结束并保留其检查点。',
      action:
        '`kubectl logs job/APP_ID --previous` 和各协调器的 `kubectl describe pod` 会说明它们失败的原因（OOMKilled：协调器有意设得很小；崩溃：请报告）。流式作业可用新应用加 `--restore-job-id` 恢复。',
    },
  },
  Detached: {
    by: 'runtime',
    status: 'RUNNING',
    exit: 75,
    en: {
      meaning:
        'With HA: the coordinator Pod was deleted, evicted or drained while the job runs; it left the job, workers and masters as they were.',
      action:
        'Nothing: the Job starts another coordinator, which re-attaches to the job without submitting it again (`application.ha.coordinator-restarts` times).',
    },
    zh: {
      meaning:
        'HA 模式：作业运行期间协调器 Pod 被删除、驱逐或因节点排空而停止；它保留了作业、worker 和 master 的原样。',
      action:
        '无需处理：Job 会启动新的协调器，它重新接管作业而不会再次提交（最多 `application.ha.coordinator-restarts` 次）。',
    },
  },
  CoordinatorRestarting: {
    by: 'status',
    status: 'RUNNING',
    en: {
      meaning:
        'With HA: the last coordinator Pod ended without a terminal exit code, and the Job will start another one.',
      action:
        'Nothing, unless it repeats: then read the coordinator log (`seatunnel-app logs --id APP_ID --previous`).',
    },
    zh: {
      meaning: 'HA 模式：上一个协调器 Pod 以非终止性退出码结束，Job 将启动新的协调器。',
      action: '无需处理，除非反复发生：此时查看协调器日志（`seatunnel-app logs --id APP_ID --previous`）。',
    },
  },
  WaitingForNode: {
    by: 'status',
    status: 'RUNNING',
    en: {
      meaning:
        'Workers are Unschedulable and wait for a node: "waiting for a node (scale-up triggered)" after a cluster autoscaler\'s `TriggeredScaleUp` (or Karpenter\'s `Nominated`), "(Unschedulable; no scale-up seen yet)" while none has answered within `application.scale-up-grace-millis`.',
      action:
        "Nothing while the autoscaler adds nodes (within `application.startup-timeout-millis`). If it lasts, `kubectl describe pod` the worker and read the autoscaler's Events and logs (node group at its maximum, no group fits).",
    },
    zh: {
      meaning:
        'worker 处于 Unschedulable 状态并在等待节点：集群自动扩缩容器记录 `TriggeredScaleUp`（或 Karpenter 记录 `Nominated`）后显示 "waiting for a node (scale-up triggered)"；在 `application.scale-up-grace-millis` 内尚无扩缩容器答复时显示 "(Unschedulable; no scale-up seen yet)"。',
      action:
        '扩缩容器添加节点期间无需处理（在 `application.startup-timeout-millis` 之内）。若持续存在，对 worker 执行 `kubectl describe pod`，查看扩缩容器的事件和日志（节点组已达上限、没有合适的节点组）。',
    },
  },
  'exit code 1': {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning: "The master exited 1 (the Zeta job failed) and the runtime's own reason is not on the Job.",
      action: 'As for `JobFailed`.',
    },
    zh: {
      meaning: 'master 以 1 退出（Zeta 作业失败），且 Job 上没有 runtime 自己写入的原因。',
      action: '同 `JobFailed`。',
    },
  },
  'exit code 2': {
    by: 'status',
    status: 'CANCELED',
    en: {
      meaning: "The master exited 2 (cancelled) and the runtime's own reason is not on the Job.",
      action: 'As for `Terminated`.',
    },
    zh: { meaning: 'master 以 2 退出（已取消），且 Job 上没有 runtime 自己写入的原因。', action: '同 `Terminated`。' },
  },
  'exit code 3': {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning:
        'The master exited 3 (infrastructure: workers not created, scheduled or registered, a worker lost, the API failed).',
      action:
        "Look at the Job's Events (`kubectl describe job APP_ID`): the runtime records `WorkerLost` / `WorkerFailed` there.",
    },
    zh: {
      meaning: 'master 以 3 退出（基础设施问题：worker 未能创建、调度或注册，worker 丢失，或 API 失败）。',
      action:
        '查看 Job 的 Events（`kubectl describe job APP_ID`）：runtime 会在那里记录 `WorkerLost` / `WorkerFailed`。',
    },
  },
  'exit code 4': {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning:
        "The master exited 4 (the configuration is invalid: the Pod's settings, the job config, a connector the image lacks or the checkpoint to restore).",
      action:
        'As for `InvalidSettings`, `InvalidJobConfig`, `ConnectorMissing` or `CheckpointNotFound`; read the master log.',
    },
    zh: {
      meaning: 'master 以 4 退出（配置无效：Pod 的设置、作业配置、镜像缺少的连接器或要恢复的检查点）。',
      action:
        '同 `InvalidSettings`、`InvalidJobConfig`、`ConnectorMissing` 或 `CheckpointNotFound`；查看 master 日志。',
    },
  },
  'exit code 5': {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning: 'The master exited 5 (the Zeta master could not start or died).',
      action: 'As for `EngineStartFailed` / `EngineExited`; read the master log.',
    },
    zh: {
      meaning: 'master 以 5 退出（Zeta master 无法启动或已退出）。',
      action: '同 `EngineStartFailed` / `EngineExited`；查看 master 日志。',
    },
  },
  CreateContainerError: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'The container runtime could not create the container.',
      action: "`kubectl describe pod` for the runtime's message (a mount, the image's entrypoint).",
    },
    zh: {
      meaning: '容器运行时无法创建容器。',
      action: '执行 `kubectl describe pod` 查看容器运行时的消息（挂载、镜像入口点等）。',
    },
  },
  RunContainerError: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'The container runtime could not start the container.',
      action: '`kubectl describe pod`; check the image and `kubernetes.run-as-user`.',
    },
    zh: {
      meaning: '容器运行时无法启动容器。',
      action: '执行 `kubectl describe pod`；检查镜像和 `kubernetes.run-as-user`。',
    },
  },
  CrashLoopBackOff: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'A container keeps exiting and the kubelet waits before restarting it.',
      action: "Read that container's log (`--previous` for the last run).",
    },
    zh: {
      meaning: '某个容器反复退出，kubelet 在重启前等待。',
      action: '查看该容器的日志（上一次运行用 `--previous`）。',
    },
  },
  PreCreateHookError: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'A hook of the container runtime failed before the container was created.',
      action: "`kubectl describe pod`; ask the cluster's operators.",
    },
    zh: {
      meaning: '容器创建前，容器运行时的 hook 执行失败。',
      action: '执行 `kubectl describe pod`；联系集群运维人员。',
    },
  },
  PostStartHookError: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'A postStart hook of the container failed.',
      action: '`kubectl describe pod`; a hook added by an admission webhook is the usual cause.',
    },
    zh: {
      meaning: '容器的 postStart hook 执行失败。',
      action: '执行 `kubectl describe pod`；通常由准入 webhook 添加的 hook 引起。',
    },
  },
  'Init:<reason>': {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning: 'The init container `install-runtime` (it copies the runtime from `kubernetes.runtime.image`) failed.',
      action: 'Check `kubernetes.runtime.image` and that its pull works; `kubectl logs POD -c install-runtime`.',
    },
    zh: {
      meaning: 'init 容器 `install-runtime`（从 `kubernetes.runtime.image` 复制 runtime）失败。',
      action: '检查 `kubernetes.runtime.image` 及其能否正常拉取；执行 `kubectl logs POD -c install-runtime`。',
    },
  },
  FailedCreate: {
    by: 'status',
    status: 'DEPLOYING',
    en: {
      meaning:
        'The Job controller cannot create the master Pod (a Warning Event on the Job): ResourceQuota, LimitRange, Pod Security admission, a webhook.',
      action: 'The message says which; `seatunnel-app preflight` checks all of these before you submit.',
    },
    zh: {
      meaning:
        'Job 控制器无法创建 master Pod（Job 上的 Warning Event）：ResourceQuota、LimitRange、Pod Security 准入、webhook。',
      action: '消息中写明了原因；`seatunnel-app preflight` 会在提交前检查所有这些项。',
    },
  },
  PodFailurePolicy: {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning:
        "The Job failed through its podFailurePolicy (master exit code 1–5); shown when neither the runtime's reason nor the exit code is known.",
      action: 'The message holds the exit code: see its row.',
    },
    zh: {
      meaning: 'Job 因 podFailurePolicy 失败（master 退出码为 1–5）；在 runtime 的原因和退出码都未知时显示。',
      action: '消息中包含退出码：见对应的行。',
    },
  },
  BackoffLimitExceeded: {
    by: 'status',
    status: 'FAILED',
    en: {
      meaning:
        'The master Pod failed in a way the podFailurePolicy does not cover (killed by a signal, node lost); the Job never retries (`backoffLimit: 0`).',
      action: "`kubectl describe job APP_ID` and the master Pod's Events.",
    },
    zh: {
      meaning:
        'master Pod 以 podFailurePolicy 未覆盖的方式失败（被信号杀死、节点丢失）；Job 不会重试（`backoffLimit: 0`）。',
      action: '执行 `kubectl describe job APP_ID` 并查看 master Pod 的 Events。',
    },
  },
};
