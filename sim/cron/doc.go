// Package cron parses cron schedules as github.com/robfig/cron/v3's
// ParseStandard does (the parser kube-controller-manager's CronJob
// controller and the apiserver's CronJob validation use) and computes
// their activations. The CronJob controller runs schedules with it; the
// apiserver refuses a CronJob whose schedule does not parse, with the
// parser's error as the message.
//
// It imports only the standard library; it reads no clock (times are
// given).
package cron
