"""Applies a zone through octodns-cloudflare, then plans again; prints the change counts as JSON.

Arguments: config file, zone name (with the trailing dot). The provider runs with its defaults.
"""
import json
import sys

from octodns.manager import Manager


def main():
    config, zone = sys.argv[1], sys.argv[2]
    applied = Manager(config).sync(eligible_zones=[zone], dry_run=False)
    # A fresh manager: nothing cached from the first run, as a second `octodns-sync` would be.
    again = Manager(config).sync(eligible_zones=[zone], dry_run=True)
    print(json.dumps({'applied': applied, 'second_plan': again}))


if __name__ == '__main__':
    main()
