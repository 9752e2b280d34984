// A CoreDNS server with only the plugins the real node's cluster DNS uses. Upstream's main
// imports every plugin (core/plugin); importing a subset keeps the build and the binary small.
// There is deliberately no `forward`: the node has no route out, so there is nothing to forward
// to. `bind` lets the harness pin the listening address (servers bind only addresses it chose,
// never every interface of the namespace CoreDNS runs in). Keep this list equal to
// COREDNS_PLUGINS in ../versions.env (build.sh compares it with `coredns -plugins`).
package main

import (
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/hosts"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
)

func main() {
	coremain.Run()
}
