// The Kubernetes provider plugin's entry point, written for this project: it serves the
// published provider package with the schema and Terraform mapping that build.sh writes next
// to this file (schema-embed.json carries the provider version; see README.md).
package main

import (
	_ "embed"

	k8sprovider "github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/provider"
	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version"
)

//go:embed schema-embed.json
var schema []byte

//go:embed terraform-mapping-embed.json
var terraformMapping []byte

func main() {
	k8sprovider.Serve("kubernetes", version.Version, schema, terraformMapping)
}
