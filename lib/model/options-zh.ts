// Chinese descriptions of the option registry (options.ts), rendered into docs/zh/options.md.
// Typed by the registry's own keys: an option added without its Chinese text fails typecheck.
// Option keys, props, commands and code stay in English, as SeaTunnel's zh documentation writes them.

import { APP_ID_PREFIX_MAX } from './ids';
import { TOPOLOGY } from './allowed-values';
import { HA_LIMITS, type OptionRegistry } from './options';

export type OptionId = keyof OptionRegistry;

/** The description (or, for props without a deployment key, the `propsOnly` text) in Chinese. */
export const OPTIONS_ZH: Record<OptionId, string> = {
  // ---- application.* ----
  name: `应用 ID 的可读前缀（转为小写并清理非法字符，最多 ${APP_ID_PREFIX_MAX} 个字符），同时也是 Zeta 作业名。`,
  applicationId: '应用 ID；CLI 在 status/cancel 时从 `--id` 读取，construct 未指定时自动派生。',
  runId:
    '用于声明式入口（synth、cdk8s、Pulumi）：修改它会派生出新的应用 ID，即开始一次新的运行。`submit` 总是生成新的随机 ID。',
  jobId: 'Zeta 原生作业 ID，必须为正数。未设置时在提交端生成一次，master 不会重新生成。`--job-id` 优先于此配置。',
  restoreJobId:
    '历史 Zeta 作业 ID，用其最近一次检查点初始化本次新作业；必须与作业 ID 不同。找不到检查点时应用失败（runtime 在提交前检查检查点存储：PVC，或通过镜像自带的 Hadoop 客户端检查 HDFS 或 S3（s3a://）；其他远程存储会被拒绝）。SeaTunnel 2.3 只能以旧 ID 恢复，因此作业会继续以该 ID 运行（记录在 job-id 注解中）。`--restore-job-id` 优先于此配置。',
  workerCount: 'worker Pod 的固定数量。容量 = worker-count × worker.slots。',
  workerSlots: '每个 worker 固定的任务槽（slot）数。',
  workerCpuCores:
    'worker 的 CPU request 与 limit，单位为核。SeaTunnel 只接受整数核；最多三位小数（如 0.5）是本项目的扩展。',
  workerMemoryMb:
    'worker 的内存 request 与 limit，单位 MiB。JVM 堆为其减去堆外所需（其 1/4，至少 384 MiB），但不少于其一半。',
  workerPort: 'worker 的 Hazelcast 成员端口；必须与 master 端口和 REST 端口不同。',
  masterCpuCores: 'master 的 CPU request 与 limit，单位为核（小数规则同 worker）。',
  masterMemoryMb:
    'master 的内存 request 与 limit，单位 MiB。JVM 堆为其减去堆外所需（其 1/4，至少 384 MiB），但不少于其一半。',
  masterPort: 'master 的 Hazelcast TCP 端口；同时也是 Service 端口和探针端口。',
  masterRestPort:
    'master 上 Zeta REST API v2 的端口（SeaTunnel 2.3.9 及以上）。只有同一 Pod 内的 runtime 调用它，NetworkPolicy 不允许其他 Pod 访问。SeaTunnel 2.3.8 及更早版本没有 REST v2：此时 runtime 使用 master Hazelcast 端口上的 REST v1，只有本应用自己的 Pod 能访问该端口。',
  startupTimeoutMillis:
    '分别作用于 master 启动（startup 探针的时间预算）以及创建并注册全部 worker 的过程。不限制作业的执行时长。',
  scaleUpGraceMillis:
    '当集群尚未对 worker Pod 给出答复时，该 Pod 处于 Unschedulable 状态多久后使应用失败。Pod 上出现集群自动扩缩容器的 `NotTriggerScaleUp` 事件时立即失败；出现 `TriggeredScaleUp`（或 Karpenter 的 `Nominated`）事件或节点提名时，运行时会等待新节点，直到 `application.startup-timeout-millis`。默认值让 cluster-autoscaler（扫描间隔 10 秒）有三次扫描的机会；0 表示 Unschedulable 的 worker 立即失败，与没有自动扩缩容器的集群相同。必须小于 `application.startup-timeout-millis`。',
  imagePullRetryMillis:
    'worker Pod 拉取镜像失败（`ErrImagePull`、`ImagePullBackOff`）多久后使应用失败：kubelet 会在 10、20、40 秒后重试拉取，默认值让镜像仓库的短暂故障经过两三次重试即可恢复。`InvalidImageName`、`ErrImageNeverPull`（拉取策略为 `Never` 且节点上没有该镜像）与 `CreateContainerConfigError` 仍立即失败；0 表示任何拉取错误都立即失败。必须小于 `application.startup-timeout-millis`。master Pod（HA 下为 coordinator）也使用同样的时长：没有镜像它的 runtime 无法启动，因此超过该时长后 `status` 报告 FAILED 与 `ImagePullFailed`，`status --wait` 随之返回。',
  workerJoinTimeoutMillis:
    '在 master 能列出其集群成员的情况下，worker 的容器运行多久仍未加入集群，就删除并重新创建它的 Pod（`WorkerRestarted` 事件）——等待注册期间每个 worker 最多两次，作业运行期间对其间新建的 worker（替换或重启的）再各最多两次，与 worker 失败策略无关。从不加入集群的 JVM 不会自行恢复：Hazelcast 的 joiner 可能把它在 master 尚未启动完成时尝试过的地址列入黑名单。作业运行期间，它也是被集群移出的 worker 在其 Pod 重新 Ready 后可以留在集群之外的时长（网络隔离之后它可能永远不会合并回来），超过后以同样方式重启（`WorkerRejoined` 事件）。worker 通常在容器启动几秒后加入；默认值为较慢的节点留出余地。必须小于 `application.startup-timeout-millis`。',
  apiOutageToleranceMillis:
    'Kubernetes API server 不可达（控制面升级或重启、节点与 API 之间的网络中断）多久后，运行时以 `ApiUnavailable` 放弃。在此期间作业继续运行：运行时会重试其 watch、读取和写入，API 恢复应答后状态注解与事件会补上；在中断期间结束的作业按其实际结果结束。Kubernetes 本身在这种中断期间也会让工作负载继续运行，因此默认值为 15 分钟。',
  nodeLossTolerationSeconds:
    '应用的每个 Pod 在其所在节点失去响应（`node.kubernetes.io/unreachable`）或未就绪（`node.kubernetes.io/not-ready`）后还能在该节点上保留多久，之后由 Kubernetes 驱逐——即这两个 NoExecute 污点的 `tolerationSeconds`；Pod 未声明时为 300 秒。节点控制器在其宽限期（默认 50 秒）之后才发现节点失联，因此位于失联节点上的 worker 约在失联 80 秒后被放弃，而不是 350 秒：在 `application.ha.worker-failure-policy = replace` 下被替换，否则应用失败；失联的协调器会在其他节点上重新启动。失联的 HA master 在其 Pod 对象消失之前不会被替换（StatefulSet 每个名字至多保留一个 Pod）：做法见 docs/zh/ha.md。`kubernetes.master.tolerations` / `kubernetes.worker.tolerations` 中针对这两个污点之一的容忍优先。',
  haEnabled: `高可用（SeaTunnel #12886）：Zeta master 以 \`application.ha.masters\` 个 Pod 的 StatefulSet 运行在稳定的 ClusterIP Service 之后，Job 的 Pod 运行协调器（coordinator），它被替换后仍能接管。需要至少 ${HA_LIMITS.minMasters} 个 master、至少为 ${HA_LIMITS.minBackupCount} 的 backup-count，以及所有 master 都能访问的检查点存储（docs/zh/ha.md）。`,
  haMasters: `HA 模式下的 Zeta master 数量；至少 ${HA_LIMITS.minMasters} 个。SeaTunnel 尚无已发布的对应配置项（#12886 要求"至少两个 master 副本"）。`,
  haBackupCount: `HA 模式下写入引擎文件的 \`seatunnel.engine.backup-count\`；至少为 ${HA_LIMITS.minBackupCount}，且小于 master 数量。Zeta 2.3.8 并不读取它（其 map 使用 Hazelcast 自身的 1 个备份）；更新的引擎会读取。`,
  haWorkerFailurePolicy:
    '`fail`：worker Pod 丢失即结束应用（与非 HA 相同）。`replace`：协调器以同名重新创建该 worker，Zeta 从最近的检查点恢复受影响的 pipeline，次数受 `application.ha.worker-replacements` 限制。Zeta 会把 pipeline 恢复到空闲 slot 上，因此使用 `replace` 时请给 worker 预留空闲 slot。',
  haWorkerReplacements:
    '使用 `replace` 时：应用整个生命周期内最多可替换的 worker Pod 数量；再丢失一个即失败。作业的 `job.retry.times`（Zeta 可恢复 pipeline 的次数）设为本值 × 4 + 4，除非作业配置自行设置（见 docs/ha.md）。',
  haCoordinatorRestarts:
    'HA 模式下，崩溃或失败的协调器 Pod 最多再启动多少次；它会重新接管正在运行的作业（绝不重复提交）。驱逐、抢占和节点排空不计入；作业失败或取消仍会立即结束 Job。Job 的 backoffLimit 比它多一：重启次数用完后，最后一个协调器只删除 master 和 worker 并使应用失败（`CoordinatorRestartsExhausted`），因此不会有任何东西一直运行到 Job 的 TTL。',
  metricsEnabled:
    '每个 master 和 worker 上的 Zeta 遥测（`seatunnel.engine.telemetry.metric.enabled`），以及唯一的 Prometheus 端点：runtime 所在 Pod（master；HA 下为协调器）在 `application.metrics.port` 上的 `/metrics`，它转发各成员的遥测数据并附上 runtime 自身的指标；该 Pod 带有 `prometheus.io/*` 抓取注解。抓取方永远不会访问成员端口：其上的 Hazelcast 客户端协议可以控制作业（docs/zh/metrics.md）。SeaTunnel 公开了遥测配置键；本选项和该端点由本项目确定。',
  metricsPort:
    'runtime 在其 Pod 内提供 `/metrics` 的端口（容器端口名 `metrics`）；非 HA 时必须与同一 Pod 内的 `application.master.port` 和 `application.master.rest-port` 不同。',
  // ---- kubernetes.* ----
  namespace: '已存在的命名空间，应用的所有对象都放在其中（DNS-1123 label）。',
  image: '包含 SeaTunnel 发行版以及作业所需全部连接器、格式和驱动 jar 的镜像；运行时不会下载任何内容。',
  imagePullPolicy: '`kubernetes.image` 的拉取策略（区分大小写）。',
  imagePullSecrets: '已存在的镜像拉取 Secret：逗号分隔的字符串或 HOCON 数组；每项会去除首尾空白，空项报错。',
  serviceAccount:
    'master 使用的已存在 ServiceAccount，master 是唯一挂载 API token 的 Pod；生成的 Role 绑定到它。未设置时为应用生成一个由应用拥有的 ServiceAccount。拒绝使用 `default`（否则 Role 会授予所有以 `default` 运行的 Pod）。共用同一个具名 ServiceAccount 的应用会共享彼此的 Role：请为每个应用指定各自的 ServiceAccount。',
  seatunnelHome: '镜像内的 SEATUNNEL_HOME：绝对路径，不能包含 ":"。',
  classDataSharing:
    'Zeta JVM 的类数据共享（CDS）：`auto` 在镜像带有引擎类的归档 `<seatunnel-home>/cds/zeta.jsa` 时，用它启动每个 master 和 worker（用它构建的 Java 17 镜像：JVM 启动快约三分之一；没有归档则一切照旧）；`off` 从不使用。SeaTunnel 没有这个选项。',
  configMaps:
    '`ref` = 挂载已存在的 ConfigMap；`data` = 创建并拥有一个 ConfigMap（名称默认为 `<application-id>-<entry>`，可用 `name` 指定；指定的 `name` 必须以应用的可读名称加 `-` 开头，与生成的名称一致，且不能属于其他应用）。键不能以 `..` 开头（kubelet 自己的文件）；挂载路径须写成规范形式，不能位于应用使用的路径之上、之中或与之相同（`/opt/seatunnel-app`、`/etc/seatunnel-app/engine`、`/var/run/seatunnel-app`、检查点与 secret-ref 路径、ServiceAccount token 目录），也不能位于 SEATUNNEL_HOME 或其上级，不能与同一 Pod 上的其他挂载重叠。SeaTunnel 的引擎文件（`seatunnel.yaml`、`hazelcast*.yaml`、`log4j2*.properties`、`jvm_*options`）不能挂载到 `<seatunnel-home>/config`，引擎不会从那里读取它们：请交给 `kubernetes.runtime-files.<file>` 或 `kubernetes.config-map`（见 docs/zh/runtime.md）。`mounts` 把每个要挂载的键映射到完整路径（用 subPath 单独只读挂载）；`roles` 选择 master 和/或 worker（默认两者都挂载）。`mounts`/`roles` 子键是本项目定义的：SeaTunnel 只公开了每个挂载的键需声明完整路径。',
  secrets:
    '与 `kubernetes.configmap.<entry>` 相同，用于 Secret：`data` 创建一个由应用拥有的 Secret（值不会写入 ConfigMap 或日志），`ref` 挂载已存在的 Secret。默认 roles：仅 master。SeaTunnel 公开了 `kubernetes.secret.*` 会创建应用拥有的 Secret；子键是本项目定义的。',
  secretRef:
    '已存在的 Secret，整体只读挂载到 master 的 `/etc/seatunnel-secret`（SeaTunnel 公开的路径以 `/etc/seatunnel-se` 开头，其余部分由本项目确定）。',
  env: '每个引擎容器的环境变量——master（HA 时为 coordinator 和各 master）以及运行连接器的 worker——在 master 上还用于解析作业配置中的 `${VAR}`：字面字符串、`{ secret = s, key = k }` 或 `{ configmap = c, key = k }`（可选 `optional = true`）。值原样到达容器（包括 `$` 和 `$(VAR)`：kubelet 不做任何展开）。`kubernetes.master.env.<NAME>` / `kubernetes.worker.env.<NAME>` 只为一个角色设置变量。SeaTunnel 公开了字面值、Secret 键和 ConfigMap 键三种来源；语法是本项目定义的。保留名称对每个角色都适用（它们控制 runtime、Node.js、Kubernetes 客户端、JVM 或 Hazelcast，或由本工具设置）：`KUBECONFIG`、`HOME`、`OPENSSL_CONF`、`OPENSSL_MODULES`、`OPENSSL_ENGINES`、`LD_PRELOAD`、`LD_AUDIT`、`JAVA_TOOL_OPTIONS`、`_JAVA_OPTIONS`、本工具设置的变量（`SEATUNNEL_HOME`、`JAVA_OPTS`、`JvmOption`、`JDK_JAVA_OPTIONS`、`ST_DOCKER_MEMBER_LIST`、`HZ_PHONE_HOME_ENABLED`），以及所有以 `SEATUNNEL_APP_`、`SEATUNNEL_APPLICATION_`、`SEATUNNEL_POD_`、`NODE_`、`KUBERNETES_SERVICE_` 或 `HZ_` 开头的名称。',
  envFrom:
    '把整个已存在的 Secret 或 ConfigMap 作为每个引擎容器（master 和 worker）的环境变量：`{ secret = s }` 或 `{ configmap = c }`，可选 `prefix` 和 `optional`。会构成或可能补全保留名称（见 `kubernetes.env.<NAME>`）的前缀会被拒绝；不设前缀时，键要到 Pod 启动时才知道，因此请不要在该对象中放保留名称，或设置前缀。SeaTunnel 公开了 `kubernetes.env-from.*`（整个对象作为 envFrom）；子键由本项目定义。',
  masterEnv:
    '仅 master 角色（master；HA 时为 coordinator 和各 master）的环境变量，形式和规则与 `kubernetes.env.<NAME>` 相同（包括保留名称）；此处指定的变量在该角色上替换同名的共享变量。SeaTunnel 没有按角色的形式。',
  workerEnv:
    '仅 worker 的环境变量，形式和规则与 `kubernetes.env.<NAME>` 相同（包括保留名称）；此处指定的变量在 worker 上替换同名的共享变量。SeaTunnel 没有按角色的形式。',
  masterEnvFrom:
    '仅 master 角色（master；HA 时为 coordinator 和各 master）的整个 Secret 或 ConfigMap 环境变量，与 `kubernetes.env-from.<entry>` 相同（前缀规则相同）；此处指定的条目在该角色上替换同名的共享条目。SeaTunnel 没有按角色的形式。',
  workerEnvFrom:
    '仅 worker 的整个 Secret 或 ConfigMap 环境变量，与 `kubernetes.env-from.<entry>` 相同（前缀规则相同）；此处指定的条目在 worker 上替换同名的共享条目。SeaTunnel 没有按角色的形式。',
  jobConfig: '作业配置文本；CLI 从 `-c` 读取。',
  jobConfigFile:
    'master 内作业文件的绝对路径，来自某个 `kubernetes.configmap.<entry>` 或 `kubernetes.secret.<entry>` 挂载。设置后不再需要 `-c`（此时给出 `-c` 会被拒绝，避免被静默忽略）。SeaTunnel 公开了该键；取值语法由本项目定义。',
  labels:
    '应用所有对象上的标签（例如来自团队模板的成本中心）。每个对象还带有推荐的 `app.kubernetes.io/` 标签：`name`（`seatunnel`）、`instance`（应用 ID）、`component`、`managed-by`（`seatunnel-app`）为保留键；`part-of`（应用 ID 的可读部分，同一作业的每次运行都相同）和 `version`（引擎镜像的 tag）可由本选项为所有对象统一替换。',
  annotations: '应用所有对象上的注解。`seatunnel.apache.org/` 下的键为保留键：runtime 和 `status` 依赖它们。',
  masterLabels:
    'master Pod 的额外标签：`k:v,k:v` 或 HOCON 对象。`seatunnel.apache.org/` 下的键以及本工具设置的 `app.kubernetes.io/` 键为保留键（`part-of` 和 `version` 可通过 `kubernetes.labels` 为所有对象设置）。',
  workerLabels: 'worker Pod 的额外标签（规则同 master 标签）。',
  masterAnnotations: 'master Pod 的注解（`seatunnel.apache.org/` 下的键为保留键）。',
  workerAnnotations: 'worker Pod 的注解（`seatunnel.apache.org/` 下的键为保留键）。',
  masterNodeSelector: 'master Pod 的 nodeSelector；值可以为空（`disktype:`），与 Kubernetes 一致。',
  workerNodeSelector: 'worker Pod 的 nodeSelector（值可以为空）。',
  masterTolerations:
    'master Pod 的容忍（toleration）：由 `{ key, operator, value, effect, toleration-seconds }` 组成的 HOCON 数组，或 `key=value:Effect,key:Effect`（没有 "=" 时 operator 为 Exists）。SeaTunnel 公开了可配置容忍；配置名由本项目确定。',
  workerTolerations: 'worker Pod 的容忍（语法相同）。',
  masterSpread:
    'HA master 之间如何分开：在 `kubernetes.master.spread-topology` 上对本应用的 master 设置 Pod 反亲和（默认：每个 master 各占一个节点）。`preferred`：调度器尽量不把两个 master 放进同一个拓扑域，别无选择时仍会放。`required`：每个拓扑域至多一个 master；找不到空闲拓扑域的 master 保持 Pending（Unschedulable），替换的 master 同样需要空闲拓扑域，因此拓扑域应多于 master。`none`：不设规则。只有一个 master（非 HA）时无需分开。cdk8s-plus 的 `scheduling.spread()` 带 weight 即 `preferred`，不带即 `required`。SeaTunnel 没有这个选项。',
  workerSpread:
    '与 `kubernetes.master.spread` 相同，作用于本应用的 worker，拓扑取 `kubernetes.worker.spread-topology`。`required` 使每个拓扑域至多一个 worker：worker 多于拓扑域时，部分 worker 处于 Unschedulable，超过 `application.scale-up-grace-millis` 后应用失败。要把大量 worker 均衡分布到各可用区，请用 `kubernetes.worker.topology-spread-constraints`。',
  masterSpreadTopology: `\`kubernetes.master.spread\` 用来分开 master 的节点标签，其取值即拓扑域：\`${TOPOLOGY.hostname}\`（一个节点）、\`${TOPOLOGY.zone}\`、\`${TOPOLOGY.region}\` 或任意节点标签键；列表或逗号分隔的字符串。给出多个时每个都生效（\`required\` 时：每个节点一个 master，且每个可用区一个）。没有该标签的节点不属于任何拓扑域，不受此规则限制。`,
  workerSpreadTopology: '与 `kubernetes.master.spread-topology` 相同，用于 `kubernetes.worker.spread`。',
  masterTopologySpreadConstraints:
    'HA master 的 Kubernetes 拓扑分布约束（topology spread constraints），原样传递：由 `{ maxSkew, topologyKey, whenUnsatisfiable, labelSelector, minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys }` 组成的 HOCON 数组（Kubernetes 的字段名，或 kebab-case：`max-skew` 等），命令行上可写 `topologyKey:maxSkew:whenUnsatisfiable,…`。不设 `labelSelector` 时统计本应用的 master。按 API Server 的规则校验（`minDomains` 只能与 DoNotSchedule 一起用；每个 topologyKey 与 whenUnsatisfiable 的组合只能有一个约束）。`minDomains` 从 Kubernetes 1.27 起默认开启，两个节点策略从 1.26 起，`matchLabelKeys` 从 1.27 起；更早的 API Server 会丢弃这些字段。非 HA 时不起作用。',
  workerTopologySpreadConstraints:
    '与 `kubernetes.master.topology-spread-constraints` 相同，作用于 worker Pod（不设 `labelSelector` 时统计本应用的 worker），例如 `[{ maxSkew = 1, topologyKey = "topology.kubernetes.io/zone", whenUnsatisfiable = DoNotSchedule }]` 把 worker 均衡分布到各可用区。被 DoNotSchedule 约束挡住的 worker 处于 Unschedulable。',
  checkpointPvc:
    '已存在的 PVC，仅在 master 上以读写方式挂载到 `/opt/seatunnel/checkpoints`；永远不会被设置 owner reference、修改或删除。SeaTunnel 已发布的页面提到了该键；挂载路径与语义沿用其发布前的代码。',
  finishedJobRetentionSeconds:
    '已结束的应用保留可见的时长：即 Job 的 `ttlSecondsAfterFinished`。SeaTunnel 已发布的页面提到了该键；默认值与范围沿用其发布前的代码。',
  kubeconfig:
    '提交端的 kubeconfig。不会发送到集群；请写在部署文件中，而不是通过 `-D` 传入。SeaTunnel 已发布的页面提到了该键；细节沿用其发布前的代码。',
  runtimeConfigMap:
    '已存在的 ConfigMap，包含 SeaTunnel 的运行时文件（可直接用发行版的整个 `config/` 目录），只读挂载到 master 和每个 worker 的 `<seatunnel-home>/config`；永远不会被创建、修改或删除。`submit` 和 `preflight` 会先读取它：它必须包含 `seatunnel.yaml`、每个角色的 Hazelcast 文件（`hazelcast-master.yaml`/`hazelcast-worker.yaml`，否则 `hazelcast.yaml`）和 `log4j2.properties`，`kubernetes.runtime-files` 提供或禁用的文件除外；若有 `jvm_master_options`/`jvm_worker_options`（否则 `jvm_options`）也会读取，其参数放在自动生成的参数（堆大小来自 memory-mb）之后、`kubernetes.runtime-files.jvm-options` 之前；其他文件被忽略。其中的文件取代自动生成的默认值；每个引擎启动时会在其上施加 application 模式控制的键。SeaTunnel 发行版为这些键自带的值（集群名 `seatunnel`、localhost 成员列表、2g 堆等）会被替换并给出警告；若文件把这些键设为其他值，或设置堆大小，会在创建任何对象之前被拒绝。见 docs/runtime.md。',
  runtimeFiles:
    '`<file>` 为 `engine`（seatunnel.yaml）、`hazelcast`、`jvm-options` 或 `log4j2`。默认全部自动生成；`{ file = path }` 或 `{ content = "…" }` 提供自定义文件（YAML：合并到 application 模式控制的键之下；JVM 参数：追加；Log4j2：整体替换）；`{ enabled = false }` 使用镜像自带的文件。Hazelcast 文件不能修改成员发现（不允许 auto-detection、multicast、kubernetes 或云发现、discovery strategies、advanced network），也不能修改 `network.rest-api`。自定义文件放入同一个 ConfigMap（engine、hazelcast 和 jvm-options 每个角色一份），其大小必须低于 API Server 的 1 MiB 上限。SeaTunnel 公开了每个文件都可以指定或禁用；配置名由本项目确定。',
  rbacCreate: '生成 master 的 Role（恰好是 runtime 发出的调用）及其绑定到 ServiceAccount 的 RoleBinding。',
  networkPolicyEnabled:
    '生成 NetworkPolicy：master 与 worker 只接受来自本应用 Pod 的 Hazelcast 流量；任何其他 Pod 都无法访问 REST 端口。',
  metricsScraperNamespaceLabels:
    '允许抓取 runtime `/metrics` 的 Pod 所在命名空间的标签（`k:v,k:v` 或 HOCON 对象，规则同 `kubernetes.master.node-selector`）。同时设置 `kubernetes.metrics.scraper-pod-labels` 时，抓取方必须同时匹配两者；单独设置时，这些命名空间中的所有 Pod 都可以抓取。NetworkPolicy 只允许它们访问 runtime 所在 Pod 的 `application.metrics.port`，不允许访问其他任何端口；两者都不设置时不允许任何抓取方。需要 `application.metrics.enabled`。',
  metricsScraperPodLabels:
    '允许抓取 runtime `/metrics` 的 Pod 的标签；单独设置时只在应用所在的命名空间中匹配（与 `kubernetes.metrics.scraper-namespace-labels` 一起设置时，在其匹配的命名空间中匹配）。需要 `application.metrics.enabled`。',
  metricsPodMonitor:
    '另外创建一个 `PodMonitor`（Prometheus operator 的 `monitoring.coreos.com/v1`），名为 `<application-id>-metrics`，它选中 runtime 所在的 Pod，并在 `/metrics` 抓取其 `metrics` 端口；与应用的其他对象一样归 Job 所有。集群必须提供 PodMonitor CRD（`preflight` 和 `submit` 会在创建任何对象之前检查），提交者需要对 `podmonitors` 拥有 `create`、`get` 和 `delete` 权限（docs/zh/metrics.md）。需要 `application.metrics.enabled`。',
  metricsPodMonitorLabels:
    'PodMonitor 在应用自身标签之外的标签，供按标签选择的 Prometheus `podMonitorSelector` 使用（例如 `release:prometheus`）；`k:v,k:v` 或 HOCON 对象，规则同 `kubernetes.labels`。需要 `kubernetes.metrics.pod-monitor`。',
  podSecurity:
    'master 与 worker Pod 按此 Pod Security Standards 级别构建（`preflight` 会报告命名空间实际强制的级别）。`baseline`：禁止提权，seccomp 为 RuntimeDefault，不使用主机资源。`restricted` 另外要求 runAsNonRoot 并丢弃所有 capabilities：需要镜像以非 root 用户运行，或设置 `kubernetes.run-as-user`。默认值为 `baseline`，因为官方 apache/seatunnel 镜像以 root 运行并会写入 /opt/seatunnel。',
  runAsUser:
    'master 与 worker Pod 中所有容器运行所用的非 root 用户 ID（Pod 的 `securityContext.runAsUser`）。该用户必须能读取 SEATUNNEL_HOME 并写入其 logs 目录，且镜像的 /etc/passwd 中必须有该用户：Zeta 的检查点存储通过 Hadoop 登录，没有用户名时会失败（`invalid null input: name`）。',
  admissionFence:
    '在 worker PodTemplate 上写明 master 的 ServiceAccount（注解 `seatunnel.apache.org/fenced-creator`），并在 runtime 的 Role 中标记它（`fence.seatunnel.apache.org` 组的规则，没有任何 API 提供该组），这样在平台团队安装了准入围栏（ValidatingAdmissionPolicy `seatunnel-app-worker-fence` 等，Kubernetes 1.30+，见 docs/security.md）的集群上，该 ServiceAccount 只能创建与模板一致的 Pod——即使模板不在了，也只能创建它自己应用的 worker。平台未安装这些策略时不起作用。',
  runtimeMode:
    '`init-container` 把 Node.js 和 runtime 从 `kubernetes.runtime.image` 复制到共享卷中，因此可以原样使用官方 SeaTunnel 镜像；`embedded` 要求它们已位于 `kubernetes.image` 内的 /opt/seatunnel-app。',
  runtimeImage: '包含 Node.js 和 runtime bundle 的镜像（由 runtime/Dockerfile 构建）。',
  runtimeImagePullPolicy: 'runtime 镜像的拉取策略。',
};

/** What an unset option without a default means (`unset` in the registry), in Chinese. The renderer refuses an `unset` without one. */
export const UNSET_ZH: Readonly<Record<string, string>> = {
  generated: '自动生成',
  'fresh start': '从头开始',
  'generated: `<application-id>-runtime`': '自动生成：`<application-id>-runtime`',
  'KUBECONFIG, then in-cluster': '先 KUBECONFIG，再集群内配置',
  'all generated': '全部自动生成',
  "the image's user": '镜像自身的用户',
};
