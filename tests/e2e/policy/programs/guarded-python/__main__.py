"""A VPC's public IP with an SSH firewall rule, its sources from config `sshCidr`: the security policy's case."""
import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
net = restcloud.Vpc("net", cidr="10.80.0.0/16", vpc_offering_uuid=config.require("vpcOfferingUuid"))
ip = restcloud.PublicIpAddress("ip", vpc_uuid=net.id)
restcloud.FirewallRule("ssh", ip_address_uuid=ip.id, protocol="TCP", start_port=22, cidr_list=config.get("sshCidr"))
