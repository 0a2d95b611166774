// Command checks is the Go program of tests/e2e/go/checks.test.ts: the provider's functions with
// their typed results as outputs, a VPC whose CIDR comes from config (a change replaces it), a VPN
// customer gateway whose pre-shared key is a secret from config, and a volume whose storage plan
// config may name (a bad one must fail the preview).
//
// Config: vpcCidr (default 10.60.0.0/16), presharedKey (a secret; required), storageOfferingUuid
// (default: the zone's first custom-size storage plan).
//
// main is the SDK's runner (sdk/go/runner): the test runs it under `pulumi up`, preview and destroy,
// through the Go language host.
package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/restcloud/pulumi-restcloud/sdk/go/restcloud"
	"github.com/restcloud/pulumi-restcloud/sdk/go/runner"
)

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")

	zones, err := restcloud.GetZones(ctx, &restcloud.GetZonesArgs{})
	if err != nil {
		return err
	}
	zone, err := restcloud.GetZone(ctx, &restcloud.GetZoneArgs{NameRegex: pulumi.StringRef(".")})
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
	linux, osOnly := restcloud.GetTemplatePlatformLINUX, restcloud.GetTemplateDistribution_O_S_ONLY
	template, err := restcloud.GetTemplate(ctx, &restcloud.GetTemplateArgs{
		ZoneUuid:     &zone.Uuid,
		Platform:     &linux,
		Distribution: &osOnly,
		NameRegex:    pulumi.StringRef("ubuntu 24"),
	})
	if err != nil {
		return err
	}
	storage, err := restcloud.GetStoragePlans(ctx, &restcloud.GetStoragePlansArgs{
		ZoneUuid: &zone.Uuid,
		IsCustom: pulumi.BoolRef(true),
	})
	if err != nil {
		return err
	}
	vpcOfferings, err := restcloud.GetVpcOfferings(ctx, &restcloud.GetVpcOfferingsArgs{ZoneUuid: &zone.Uuid})
	if err != nil {
		return err
	}
	if len(storage.Plans) == 0 || len(vpcOfferings.Offerings) == 0 || plan.Cores == nil || plan.MemoryGib == nil {
		return fmt.Errorf("zone %s lacks a custom-size storage plan or a VPC offering, or the plan its size", zone.Name)
	}

	vpcCidr := cfg.Get("vpcCidr")
	if vpcCidr == "" {
		vpcCidr = "10.60.0.0/16"
	}
	vpc, err := restcloud.NewVpc(ctx, "net", &restcloud.VpcArgs{
		ZoneUuid:        pulumi.String(zone.Uuid),
		Cidr:            pulumi.String(vpcCidr),
		VpcOfferingUuid: pulumi.String(vpcOfferings.Offerings[0].Uuid),
	})
	if err != nil {
		return err
	}

	gateway, err := restcloud.NewVpnCustomerGateway(ctx, "office", &restcloud.VpnCustomerGatewayArgs{
		Gateway:           pulumi.String("198.51.100.7"),
		CidrList:          pulumi.String("192.168.50.0/24"),
		IpsecPresharedKey: cfg.RequireSecret("presharedKey"),
		IkePolicy:         pulumi.String("Group 14(modp2048)"),
		IkeEncryption:     restcloud.VpnCustomerGatewayIkeEncryptionAES256,
		IkeHash:           restcloud.VpnCustomerGatewayIkeHashSHA256,
		EspEncryption:     restcloud.VpnCustomerGatewayEspEncryptionAES256,
		EspHash:           restcloud.VpnCustomerGatewayEspHashSHA256,
	})
	if err != nil {
		return err
	}

	storageOfferingUuid := cfg.Get("storageOfferingUuid")
	if storageOfferingUuid == "" {
		storageOfferingUuid = storage.Plans[0].Uuid
	}
	volume, err := restcloud.NewVolume(ctx, "data", &restcloud.VolumeArgs{
		ZoneUuid:            pulumi.String(zone.Uuid),
		StorageOfferingUuid: pulumi.String(storageOfferingUuid),
		Size:                pulumi.Int(10),
	})
	if err != nil {
		return err
	}

	// The functions' results, field by field, as the Go SDK types them.
	ctx.Export("zoneCount", pulumi.Int(len(zones.Zones)))
	ctx.Export("firstZoneUuid", pulumi.String(zones.Zones[0].Uuid))
	ctx.Export("zoneUuid", pulumi.String(zone.Uuid))
	ctx.Export("zoneName", pulumi.String(zone.Name))
	ctx.Export("planUuid", pulumi.String(plan.Uuid))
	ctx.Export("planName", pulumi.String(plan.Name))
	ctx.Export("planCores", pulumi.Float64(*plan.Cores))
	ctx.Export("planMemoryGib", pulumi.Float64(*plan.MemoryGib))
	ctx.Export("planType", pulumi.String(string(plan.Type)))
	ctx.Export("templateUuid", pulumi.String(template.Uuid))
	ctx.Export("templateName", pulumi.String(template.Name))
	ctx.Export("storagePlanUuid", pulumi.String(storage.Plans[0].Uuid))
	ctx.Export("storagePlanIsCustom", pulumi.Bool(storage.Plans[0].IsCustom))
	ctx.Export("vpcOfferingUuid", pulumi.String(vpcOfferings.Offerings[0].Uuid))

	ctx.Export("vpcId", vpc.ID())
	ctx.Export("vpcCidr", vpc.Cidr)
	ctx.Export("gatewayId", gateway.ID())
	ctx.Export("presharedKey", gateway.IpsecPresharedKey)
	ctx.Export("volumeId", volume.ID())
	return nil
}

func main() { runner.Main(program) }
