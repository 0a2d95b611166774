"""The functions' typed results, a VPC and a VPN customer gateway with a secret pre-shared key; or,
with config storageOfferingUuid, only a volume of that storage plan."""

import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
zone = restcloud.get_zone(name_regex="frankfurt")
plan = restcloud.get_compute_plan(zone_uuid=zone.uuid, min_cores=2, min_memory_gib=4)
vpc_offerings = restcloud.get_vpc_offerings(zone_uuid=zone.uuid)
storage_plans = restcloud.get_storage_plans(zone_uuid=zone.uuid, is_custom=True)

storage_offering_uuid = config.get("storageOfferingUuid")
if storage_offering_uuid:
    restcloud.Volume("data", zone_uuid=zone.uuid, storage_offering_uuid=storage_offering_uuid, size=10)
else:
    vpc = restcloud.Vpc(
        "net",
        zone_uuid=zone.uuid,
        cidr=config.get("vpcCidr") or "10.60.0.0/16",
        vpc_offering_uuid=vpc_offerings.offerings[0].uuid,
        description="the Python program's VPC",
    )
    gateway = restcloud.VpnCustomerGateway(
        "office",
        gateway="203.0.113.10",
        cidr_list="192.168.10.0/24",
        ipsec_preshared_key=config.require_secret("presharedKey"),
        ike_policy="Group 14(modp2048)",
        ike_encryption="aes128",
        ike_hash="sha1",
        esp_encryption="aes128",
        esp_hash="sha1",
    )
    pulumi.export("vpcId", vpc.id)
    pulumi.export("vpcCidr", vpc.cidr)
    pulumi.export("gatewayId", gateway.id)
    pulumi.export("gatewayStatus", gateway.status)

# The functions' results, read as typed attributes (a misspelt one is an AttributeError).
pulumi.export(
    "zone",
    {
        "type": type(zone).__name__,
        "uuid": zone.uuid,
        "name": zone.name,
        "country_name": zone.country_name,
        "is_active": zone.is_active,
    },
)
pulumi.export(
    "plan",
    {
        "type": type(plan).__name__,
        "uuid": plan.uuid,
        "name": plan.name,
        "cores": plan.cores,
        "memory_gib": plan.memory_gib,
        "is_custom": plan.is_custom,
    },
)
pulumi.export(
    "vpcOffering",
    {
        "type": type(vpc_offerings.offerings[0]).__name__,
        "uuid": vpc_offerings.offerings[0].uuid,
        "name": vpc_offerings.offerings[0].name,
    },
)
pulumi.export("customStoragePlans", [p.uuid for p in storage_plans.plans])
