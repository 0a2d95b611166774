"""One VPC; with config importId, imported from that record rather than created."""

import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
zone = restcloud.get_zone(name_regex="frankfurt")
offerings = restcloud.get_vpc_offerings(zone_uuid=zone.uuid)
import_id = config.get("importId")

vpc = restcloud.Vpc(
    "net",
    name="python-imported",
    zone_uuid=zone.uuid,
    cidr="10.70.0.0/16",
    vpc_offering_uuid=offerings.offerings[0].uuid,
    description="a VPC to import",
    opts=pulumi.ResourceOptions(import_=import_id) if import_id else None,
)

pulumi.export("vpcId", vpc.id)
