"""A VPC with one tier and one instance on RestCloud. The catalog ids (zone, offerings, compute plan,
template) are looked up by name, so the program runs unchanged against any account or the emulator."""

import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
zone = restcloud.get_zone(name_regex=config.get("zoneName") or ".")
zone_uuid = zone.uuid
vpc_offerings = restcloud.get_vpc_offerings(zone_uuid=zone_uuid)
tier_offerings = restcloud.get_network_offerings(zone_uuid=zone_uuid, type="VPC")
plan = restcloud.get_compute_plan(zone_uuid=zone_uuid, min_cores=2, min_memory_gib=4)
template = restcloud.get_template(zone_uuid=zone_uuid, name_regex="ubuntu 24")

vpc = restcloud.Vpc(
    "main",
    zone_uuid=zone_uuid,
    cidr="10.20.0.0/16",
    vpc_offering_uuid=vpc_offerings.offerings[0].uuid,
)
tier = restcloud.VpcTier(
    "app",
    zone_uuid=zone_uuid,
    vpc_uuid=vpc.id,
    cidr="10.20.1.0/24",
    network_offering_uuid=tier_offerings.offerings[0].uuid,
)
server = restcloud.Instance(
    "app-1",
    zone_uuid=zone_uuid,
    template_uuid=template.uuid,
    compute_offering_uuid=plan.uuid,
    network_uuid=tier.id,
)

pulumi.export("zone", zone.name)
pulumi.export("vpcId", vpc.id)
pulumi.export("tierId", tier.id)
pulumi.export("instanceId", server.id)
pulumi.export("privateIp", server.private_ip)
