// A VPC with one tier and one instance on RestCloud. The catalog ids (zone, offerings, compute
// plan, template) are looked up by name, so the program runs unchanged against any account or the
// emulator.
//
// main is the SDK's runner: under `pulumi up` (the Go language host builds and runs it) it is
// pulumi.Run(program); `go run . up|preview|refresh|destroy` runs the same program on the same
// stack through Pulumi's Automation API, which needs no Go language host.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/restcloud/pulumi-restcloud/sdk/go/restcloud"
	"github.com/restcloud/pulumi-restcloud/sdk/go/runner"
)

func program(ctx *pulumi.Context) error {
	zoneName := config.New(ctx, "").Get("zoneName")
	if zoneName == "" {
		zoneName = "."
	}
	zone, err := restcloud.GetZone(ctx, &restcloud.GetZoneArgs{NameRegex: pulumi.StringRef(zoneName)})
	if err != nil {
		return err
	}
	vpcOfferings, err := restcloud.GetVpcOfferings(ctx, &restcloud.GetVpcOfferingsArgs{ZoneUuid: &zone.Uuid})
	if err != nil {
		return err
	}
	tierOfferings, err := restcloud.GetNetworkOfferings(ctx, &restcloud.GetNetworkOfferingsArgs{
		ZoneUuid: &zone.Uuid,
		Type:     pulumi.StringRef("VPC"),
	})
	if err != nil {
		return err
	}
	plan, err := restcloud.GetComputePlan(ctx, &restcloud.GetComputePlanArgs{
		ZoneUuid:     &zone.Uuid,
		MinCores:     pulumi.IntRef(2),
		MinMemoryGib: pulumi.Float64Ref(4),
	})
	if err != nil {
		return err
	}
	template, err := restcloud.GetTemplate(ctx, &restcloud.GetTemplateArgs{
		ZoneUuid:  &zone.Uuid,
		NameRegex: pulumi.StringRef("ubuntu 24"),
	})
	if err != nil {
		return err
	}

	vpc, err := restcloud.NewVpc(ctx, "main", &restcloud.VpcArgs{
		ZoneUuid:        pulumi.String(zone.Uuid),
		Cidr:            pulumi.String("10.20.0.0/16"),
		VpcOfferingUuid: pulumi.String(vpcOfferings.Offerings[0].Uuid),
	})
	if err != nil {
		return err
	}
	tier, err := restcloud.NewVpcTier(ctx, "app", &restcloud.VpcTierArgs{
		ZoneUuid:            pulumi.String(zone.Uuid),
		VpcUuid:             vpc.ID(),
		Cidr:                pulumi.String("10.20.1.0/24"),
		NetworkOfferingUuid: pulumi.String(tierOfferings.Offerings[0].Uuid),
	})
	if err != nil {
		return err
	}
	server, err := restcloud.NewInstance(ctx, "app-1", &restcloud.InstanceArgs{
		ZoneUuid:            pulumi.String(zone.Uuid),
		TemplateUuid:        pulumi.String(template.Uuid),
		ComputeOfferingUuid: pulumi.String(plan.Uuid),
		NetworkUuid:         tier.ID(),
	})
	if err != nil {
		return err
	}

	ctx.Export("zone", pulumi.String(zone.Name))
	ctx.Export("vpcId", vpc.ID())
	ctx.Export("tierId", tier.ID())
	ctx.Export("instanceId", server.ID())
	ctx.Export("privateIp", server.PrivateIp)
	return nil
}

func main() { runner.Main(program) }
