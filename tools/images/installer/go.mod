module seatunnel-app/installer

go 1.22
