/*
 * Our stand-in for SeaTunnel's `org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer` entry
 * point, whose shaded starter jar is not served for 2.3.8. It accepts the same arguments the
 * application-mode Pods use (`-r master|worker|master_and_worker`) and starts the member through
 * ZetaNode, so the engine tier runs the exact command lines the plan generates.
 */
package org.apache.seatunnel.core.starter.seatunnel;

import org.seatunnelapp.zeta.ZetaNode;

public final class SeaTunnelServer {
    private SeaTunnelServer() {}

    public static void main(String[] args) {
        String role = "master_and_worker";
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("-r") || args[i].equals("--role")) && i + 1 < args.length) {
                role = args[++i];
            } else if (!args[i].equals("-d") && !args[i].equals("--daemon")) {
                System.err.println("SeaTunnelServer: unsupported argument '" + args[i] + "' (usage: -r master|worker|master_and_worker)");
                System.exit(2);
            }
        }
        ZetaNode.main(new String[] {role});
    }
}
