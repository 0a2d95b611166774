"""A two-tier web application in a VPC: a frontend and a backend tier, a web server and an
application server, a data volume on the application server, a public IP with firewall rules, and
an egress rule. The catalog ids (zone, offerings, plan, template) are looked up by name."""

import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
zone = restcloud.get_zone(name_regex=config.get("zoneName") or ".")
zone_uuid = zone.uuid
vpc_offerings = restcloud.get_vpc_offerings(zone_uuid=zone_uuid)
tier_offerings = restcloud.get_network_offerings(zone_uuid=zone_uuid, type="VPC")
plan = restcloud.get_compute_plan(zone_uuid=zone_uuid, min_cores=2, min_memory_gib=4)
template = restcloud.get_template(
    zone_uuid=zone_uuid, platform="LINUX", distribution="OS_ONLY", name_regex="ubuntu 24"
)
storage = restcloud.get_storage_plans(zone_uuid=zone_uuid, is_custom=True)

vpc = restcloud.Vpc(
    "web",
    zone_uuid=zone_uuid,
    cidr="10.10.0.0/16",
    vpc_offering_uuid=vpc_offerings.offerings[0].uuid,
    description="The web application's network",
)
tier_offering_uuid = tier_offerings.offerings[0].uuid
frontend = restcloud.VpcTier(
    "frontend",
    zone_uuid=zone_uuid,
    vpc_uuid=vpc.id,
    cidr="10.10.1.0/24",
    network_offering_uuid=tier_offering_uuid,
)
backend = restcloud.VpcTier(
    "backend",
    zone_uuid=zone_uuid,
    vpc_uuid=vpc.id,
    cidr="10.10.2.0/24",
    network_offering_uuid=tier_offering_uuid,
)


def server(name: str, tier: restcloud.VpcTier) -> restcloud.Instance:
    return restcloud.Instance(
        name,
        zone_uuid=zone_uuid,
        template_uuid=template.uuid,
        compute_offering_uuid=plan.uuid,
        network_uuid=tier.id,
    )


web = server("web-1", frontend)
app = server("app-1", backend)

data = restcloud.Volume(
    "app-data",
    zone_uuid=zone_uuid,
    storage_offering_uuid=storage.plans[0].uuid,
    size=config.get_int("dataSizeGb") or 50,
    instance_uuid=app.id,
)

ip = restcloud.PublicIpAddress("web", zone_uuid=zone_uuid, vpc_uuid=vpc.id)
for port in (80, 443):
    restcloud.FirewallRule(
        f"https-{port}",
        ip_address_uuid=ip.id,
        protocol="TCP",
        start_port=port,
        cidr_list="0.0.0.0/0",
    )
restcloud.EgressRule("backend-https", network_uuid=backend.id, protocol="TCP", start_port=443)

pulumi.export("zone", zone.name)
pulumi.export("vpcId", vpc.id)
pulumi.export("vpcCidr", vpc.cidr)
pulumi.export("publicIp", ip.address)
pulumi.export("webPrivateIp", web.private_ip)
pulumi.export("appPrivateIp", app.private_ip)
pulumi.export("dataVolumeId", data.id)
pulumi.export("computePlan", plan.name)
pulumi.export("template", template.name)
