/*
 * A throw-away HDFS for the engine tier: Hadoop's in-process MiniDFSCluster (one NameNode, one
 * DataNode) on 127.0.0.1 only, with its data under the directory given. It prints
 * `HDFS_URI=hdfs://127.0.0.1:<port>` on stdout once it accepts writes, then runs until its
 * standard input closes (the test harness that started it went away) or it is signalled.
 *
 * Usage: java -cp <tools/hdfs/install.sh home>/lib/*:<classes> org.seatunnelapp.hdfs.MiniHdfs <base-dir>
 */
package org.seatunnelapp.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.File;

public final class MiniHdfs {
    private MiniHdfs() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: MiniHdfs <base-dir>");
            System.exit(2);
        }
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(args[0]).getAbsolutePath());
        // Every listener on loopback: RPC, HTTP, the DataNode's data/IPC/HTTP ports.
        conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1");
        conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
        conf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, "127.0.0.1:0");
        conf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, "127.0.0.1:0");
        conf.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
        // The engine and this test run as different local users only in name: no permission checks.
        conf.setBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, false);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown));
        System.out.println("HDFS_URI=hdfs://127.0.0.1:" + cluster.getNameNodePort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for EOF
        }
        cluster.shutdown();
        System.exit(0);
    }
}
