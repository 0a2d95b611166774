// Command vpc-web-go is examples/vpc-web in Go: a VPC with a frontend and a backend tier, a web
// server and an application server, a data volume on the application server, a public IP with
// firewall rules for ports 80 and 443, and an egress rule for HTTPS from the backend. The catalog
// ids (zone, offerings, plan, template, storage plan) are looked up by name with the provider's
// functions.
//
// `program` is an ordinary Pulumi Go program. main is the SDK's runner (sdk/go/runner): launched by
// the engine (`pulumi up`, through the Go language host pulumi-language-go), it hands the program to
// pulumi.Run; run by hand (`go run . up|preview|refresh|destroy`), it runs it through the Automation
// API in this directory's project and stack, for a Pulumi CLI without a Go host.
package main

import (
	"fmt"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/restcloud/pulumi-restcloud/sdk/go/restcloud"
	"github.com/restcloud/pulumi-restcloud/sdk/go/runner"
)

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	zoneName := cfg.Get("zoneName")
	if zoneName == "" {
		zoneName = "."
	}
	dataSizeGb := 50
	if text := cfg.Get("dataSizeGb"); text != "" {
		size, err := strconv.Atoi(text)
		if err != nil {
			return fmt.Errorf("config dataSizeGb: %q is not a whole number of GB", text)
		}
		dataSizeGb = size
	}

	zone, err := restcloud.GetZone(ctx, &restcloud.GetZoneArgs{NameRegex: pulumi.StringRef(zoneName)})
	if err != nil {
		return err
	}
	zoneUuid := zone.Uuid
	vpcOfferings, err := restcloud.GetVpcOfferings(ctx, &restcloud.GetVpcOfferingsArgs{ZoneUuid: &zoneUuid})
	if err != nil {
		return err
	}
	tierOfferings, err := restcloud.GetNetworkOfferings(ctx, &restcloud.GetNetworkOfferingsArgs{
		ZoneUuid: &zoneUuid,
		Type:     pulumi.StringRef("VPC"),
	})
	if err != nil {
		return err
	}
	plan, err := restcloud.GetComputePlan(ctx, &restcloud.GetComputePlanArgs{
		ZoneUuid:     &zoneUuid,
		MinCores:     pulumi.IntRef(2),
		MinMemoryGib: pulumi.Float64Ref(4),
	})
	if err != nil {
		return err
	}
	linux, osOnly := restcloud.GetTemplatePlatformLINUX, restcloud.GetTemplateDistribution_O_S_ONLY
	template, err := restcloud.GetTemplate(ctx, &restcloud.GetTemplateArgs{
		ZoneUuid:     &zoneUuid,
		Platform:     &linux,
		Distribution: &osOnly,
		NameRegex:    pulumi.StringRef("ubuntu 24"),
	})
	if err != nil {
		return err
	}
	storage, err := restcloud.GetStoragePlans(ctx, &restcloud.GetStoragePlansArgs{
		ZoneUuid: &zoneUuid,
		IsCustom: pulumi.BoolRef(true),
	})
	if err != nil {
		return err
	}
	// The functions answer lists; an empty one would otherwise panic on [0].
	if len(vpcOfferings.Offerings) == 0 || len(tierOfferings.Offerings) == 0 || len(storage.Plans) == 0 {
		return fmt.Errorf("zone %s lacks a VPC offering, a VPC tier offering or a custom-size storage plan", zone.Name)
	}

	vpc, err := restcloud.NewVpc(ctx, "web", &restcloud.VpcArgs{
		ZoneUuid:        pulumi.String(zoneUuid),
		Cidr:            pulumi.String("10.10.0.0/16"),
		VpcOfferingUuid: pulumi.String(vpcOfferings.Offerings[0].Uuid),
		Description:     pulumi.String("The web application's network"),
	})
	if err != nil {
		return err
	}
	tier := func(name, cidr string) (*restcloud.VpcTier, error) {
		return restcloud.NewVpcTier(ctx, name, &restcloud.VpcTierArgs{
			ZoneUuid:            pulumi.String(zoneUuid),
			VpcUuid:             vpc.ID(),
			Cidr:                pulumi.String(cidr),
			NetworkOfferingUuid: pulumi.String(tierOfferings.Offerings[0].Uuid),
		})
	}
	frontend, err := tier("frontend", "10.10.1.0/24")
	if err != nil {
		return err
	}
	backend, err := tier("backend", "10.10.2.0/24")
	if err != nil {
		return err
	}

	server := func(name string, on *restcloud.VpcTier) (*restcloud.Instance, error) {
		return restcloud.NewInstance(ctx, name, &restcloud.InstanceArgs{
			ZoneUuid:            pulumi.String(zoneUuid),
			TemplateUuid:        pulumi.String(template.Uuid),
			ComputeOfferingUuid: pulumi.String(plan.Uuid),
			NetworkUuid:         on.ID(),
		})
	}
	web, err := server("web-1", frontend)
	if err != nil {
		return err
	}
	app, err := server("app-1", backend)
	if err != nil {
		return err
	}

	data, err := restcloud.NewVolume(ctx, "app-data", &restcloud.VolumeArgs{
		ZoneUuid:            pulumi.String(zoneUuid),
		StorageOfferingUuid: pulumi.String(storage.Plans[0].Uuid),
		Size:                pulumi.Int(dataSizeGb),
		InstanceUuid:        app.ID(),
	})
	if err != nil {
		return err
	}

	ip, err := restcloud.NewPublicIpAddress(ctx, "web", &restcloud.PublicIpAddressArgs{
		ZoneUuid: pulumi.String(zoneUuid),
		VpcUuid:  vpc.ID(),
	})
	if err != nil {
		return err
	}
	for _, port := range []int{80, 443} {
		_, err := restcloud.NewFirewallRule(ctx, fmt.Sprintf("https-%d", port), &restcloud.FirewallRuleArgs{
			IpAddressUuid: ip.ID(),
			Protocol:      restcloud.FirewallRuleProtocolTCP,
			StartPort:     pulumi.Int(port),
			CidrList:      pulumi.String("0.0.0.0/0"),
		})
		if err != nil {
			return err
		}
	}
	_, err = restcloud.NewEgressRule(ctx, "backend-https", &restcloud.EgressRuleArgs{
		NetworkUuid: backend.ID(),
		Protocol:    restcloud.EgressRuleProtocolTCP,
		StartPort:   pulumi.Int(443),
	})
	if err != nil {
		return err
	}

	ctx.Export("zone", pulumi.String(zone.Name))
	ctx.Export("vpcId", vpc.ID())
	ctx.Export("vpcCidr", vpc.Cidr)
	ctx.Export("publicIp", ip.Address)
	ctx.Export("webPrivateIp", web.PrivateIp)
	ctx.Export("appPrivateIp", app.PrivateIp)
	ctx.Export("dataVolumeId", data.ID())
	ctx.Export("computePlan", pulumi.String(plan.Name))
	ctx.Export("template", pulumi.String(template.Name))
	return nil
}

func main() { runner.Main(program) }
