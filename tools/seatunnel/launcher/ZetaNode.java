/*
 * Our own minimal entry point for a SeaTunnel Zeta engine node (engine 2.3.x).
 *
 * Why it exists: Maven Central does not serve the shaded `seatunnel-starter` jar for 2.3.8 (the class
 * org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer lives only there). The published
 * `seatunnel-engine-server` jar has SeaTunnelServerStarter.main(), but that always starts a hybrid
 * MASTER_AND_WORKER member. This class does what `seatunnel-cluster.sh -r <role>` does: read the engine
 * config (system properties `seatunnel.config` / `hazelcast.config`), set the cluster role, make a worker a
 * Hazelcast lite member, and start the member. The JVM keeps running on Hazelcast's non-daemon threads.
 *
 * Usage: java ... -cp <classpath> org.seatunnelapp.zeta.ZetaNode master|worker|master_and_worker
 */
package org.seatunnelapp.zeta;

import org.apache.seatunnel.engine.common.config.ConfigProvider;
import org.apache.seatunnel.engine.common.config.EngineConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.server.SeaTunnelServerStarter;

import java.util.Locale;

public final class ZetaNode {
    private ZetaNode() {}

    public static void main(String[] args) {
        String role = args.length > 0 ? args[0].toLowerCase(Locale.ROOT) : "master_and_worker";
        if (args.length > 1 || role.equals("-h") || role.equals("--help")) {
            System.err.println("usage: ZetaNode master|worker|master_and_worker");
            System.exit(2);
        }
        SeaTunnelConfig config = ConfigProvider.locateAndGetSeaTunnelConfig();
        switch (role) {
            case "master":
                config.getEngineConfig().setClusterRole(EngineConfig.ClusterRole.MASTER);
                break;
            case "worker":
                config.getEngineConfig().setClusterRole(EngineConfig.ClusterRole.WORKER);
                // a worker holds no IMap partitions
                config.getHazelcastConfig().setLiteMember(true);
                break;
            case "master_and_worker":
                config.getEngineConfig().setClusterRole(EngineConfig.ClusterRole.MASTER_AND_WORKER);
                break;
            default:
                System.err.println("ZetaNode: unknown role '" + args[0] + "' (master|worker|master_and_worker)");
                System.exit(2);
                return;
        }
        String clusterName = config.getHazelcastConfig().getClusterName();
        System.out.println("ZetaNode: starting " + role + " member of cluster '" + clusterName + "'");
        SeaTunnelServerStarter.createHazelcastInstance(config, "zeta-" + role);
    }
}
