lint --format mpich-json /dev/zero
